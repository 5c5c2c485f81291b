// gpu_types.h — plain C++ types shared by the CUDA backend, its recorded runs and the app.
// No CUDA include: the app and the replay code use these on machines without a GPU.
// Units are said per field: *_elems are element counts, *_bytes are bytes, times are nanoseconds
// of the GPU's %globaltimer. Source of the algorithm: FlashAttention-2 (Dao 2023), §3.1, Algorithm 1;
// the materialising path is the "standard attention" of FlashAttention (Dao et al. 2022), Algorithm 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bw::cuda {

// Masks: the engine's set (issue 3). Causal conventions: top-left (PyTorch SDPA default,
// keep key j for query i when j <= i) and bottom-right (flash-attn >= 2.1, keep j <= i + N_k - N_q).
enum class MaskKind : int { None = 0, CausalTopLeft = 1, CausalBottomRight = 2, KeyPadding = 3, Explicit = 4 };

struct MaskDesc {
  MaskKind kind = MaskKind::None;
  std::vector<std::uint8_t> key_keep;  // KeyPadding: N_k entries, 1 = key is real, 0 = padding
  std::vector<std::uint8_t> keep;      // Explicit: N_q*N_k entries, row-major, 1 = keep
};

enum class Algorithm : int { Materialising = 0, TiledFp32 = 1, TensorCoreBf16 = 2, TensorCoreFp16 = 3 };
const char* AlgorithmName(Algorithm a);
const char* MaskKindName(MaskKind k);

// One (Q tile, K/V tile) step of the tiled kernel: FlashAttention-2 Algorithm 1, lines 6-10 for one j.
// Written by exactly one GPU thread; `ready` is written last and holds RecordSeal() of the fields, so
// a reader that copies a record while it is being written (the live copy on a second stream, issue 15)
// can tell a whole record from a torn one without any fence on the GPU side.
// Q-tile load bytes are booked on the record of the first K/V tile (j = 0), the O and L write on the
// record of the last K/V tile (j = T_c - 1): summing records gives the per-tensor totals.
struct TileRecord {
  std::uint64_t t_start_ns = 0;   // %globaltimer when the block began this tile
  std::uint64_t t_end_ns = 0;     // %globaltimer when the tile's update of m, l, u was done
  std::uint32_t q_tile = 0;       // i, 0 .. T_r-1 (plus head * T_r when there are several heads)
  std::uint32_t kv_tile = 0;      // j, 0 .. T_c-1
  std::uint32_t bytes_loaded = 0; // bytes copied HBM -> shared memory for this step (Q on j=0, K_j, V_j)
  std::uint32_t bytes_written = 0;// bytes written to HBM by this step (O_i and L_i on j = T_c-1)
  std::uint32_t smid = 0;         // %smid of the multiprocessor that ran the block
  std::uint32_t flags = 0;        // bit 0: skipped (tile fully masked); bit 1: partially masked
  std::uint32_t head = 0;         // batch*head index
  std::uint32_t ready = 0;        // 0 = not written; RecordSeal(fields) once complete
};
static_assert(sizeof(TileRecord) == 48, "TileRecord layout is shared with the GPU and the JSON");

#if defined(__CUDACC__)
#define BW_HOST_DEVICE __host__ __device__
#else
#define BW_HOST_DEVICE
#endif
// The `ready` word of a complete record: a 32-bit mix (FNV-1a over the nine fields' 32-bit words,
// then a murmur3 finaliser) with bit 0 forced to 1, so it is never 0. A torn copy (some fields still 0)
// matches its seal only by a 32-bit hash collision; GpuRun also re-reads every record after the kernel
// and counts any live record that differs (GpuRun::LiveMismatches).
BW_HOST_DEVICE inline std::uint32_t RecordSeal(const TileRecord& r) {
  const std::uint32_t w[10] = {(std::uint32_t)r.t_start_ns, (std::uint32_t)(r.t_start_ns >> 32), (std::uint32_t)r.t_end_ns,
                               (std::uint32_t)(r.t_end_ns >> 32), r.q_tile, r.kv_tile, r.bytes_loaded ^ (r.bytes_written << 16),
                               r.bytes_written, r.smid ^ (r.flags << 24), r.head};
  std::uint32_t h = 2166136261u;
  for (int i = 0; i < 10; ++i) h = (h ^ w[i]) * 16777619u;
  h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return h | 1u;
}
constexpr std::uint32_t kTileSkipped = 1u;
constexpr std::uint32_t kTilePartial = 2u;

// Traffic of one tensor between HBM (global memory) and the chip, in the algorithm's model.
struct TensorTraffic {
  std::int64_t read_elems = 0, read_bytes = 0, write_elems = 0, write_bytes = 0;
};
// (explicit rather than `= default`: the .cu files compile as C++17, see src/cuda/CMakeLists.txt)
inline bool operator==(const TensorTraffic& a, const TensorTraffic& b) {
  return a.read_elems == b.read_elems && a.read_bytes == b.read_bytes && a.write_elems == b.write_elems && a.write_bytes == b.write_bytes;
}

// Totals per tensor. S and P are zero for the tiled kernels: they never leave the chip.
struct Counters {
  TensorTraffic q, k, v, s, p, o, l;
  std::int64_t tiles_total = 0;    // T_r * T_c * heads (0 for the materialising path)
  std::int64_t tiles_skipped = 0;  // fully masked tiles, not computed
  std::int64_t rows_fully_masked = 0;
  std::int64_t hbm_read_bytes() const { return q.read_bytes + k.read_bytes + v.read_bytes + s.read_bytes + p.read_bytes + o.read_bytes + l.read_bytes; }
  std::int64_t hbm_write_bytes() const { return q.write_bytes + k.write_bytes + v.write_bytes + s.write_bytes + p.write_bytes + o.write_bytes + l.write_bytes; }
};
inline bool operator==(const Counters& a, const Counters& b) {
  return a.q == b.q && a.k == b.k && a.v == b.v && a.s == b.s && a.p == b.p && a.o == b.o && a.l == b.l &&
         a.tiles_total == b.tiles_total && a.tiles_skipped == b.tiles_skipped && a.rows_fully_masked == b.rows_fully_masked;
}

// One phase of one warpgroup in a sampled CTA of the Hopper kernel (issue 33), timed with the SM's own
// clock (clock64, cycles since the CTA's first stamp) and converted to ns with the SM clock rate.
enum class WarpPhase : std::uint8_t { kTmaIssue = 0, kTmaWait = 1, kWgmmaS = 2, kSoftmax = 3, kWgmmaPV = 4, kWrite = 5, kIdle = 6 };
struct WarpPhaseRecord {
  std::uint64_t t_start_ns = 0, t_end_ns = 0;  // since the sampled CTA's first stamp
  std::uint32_t cta = 0;        // linear block index
  std::uint32_t smid = 0;
  std::uint32_t kv_tile = 0;    // j of the tile the phase belongs to (0 for the Q load and the write)
  std::uint32_t q_tile = 0;     // i (plus head * T_r)
  std::uint8_t warpgroup = 0;   // 0 = producer, 1 and 2 = consumers
  WarpPhase phase = WarpPhase::kIdle;
  std::uint8_t pad[6] = {};
};
static_assert(sizeof(WarpPhaseRecord) == 40, "shared with the GPU");
// The phase's name in a recording ("tma_issue", "tma_wait", "wgmma_s", "softmax", "wgmma_pv", "write", "idle").
const char* WarpPhaseName(WarpPhase p);

// A whole run as the app shows it (and as assets/gpu/*.json stores it).
struct RunSummary {
  std::string device_name;
  int sm_count = 0;
  Algorithm algorithm = Algorithm::TiledFp32;
  int n_q = 0, n_k = 0, d = 0, d_v = 0, heads = 1, b_r = 0, b_c = 0;
  MaskKind mask = MaskKind::None;
  std::uint64_t pace_ns = 0;       // slow motion: minimum time per tile (0 = full speed)
  double kernel_ms = 0;            // CUDA-event time of the kernel(s)
  double tflops = 0;               // 4*N_q*N_k*d*heads (halved for causal, N_q == N_k) / time
  double gbps = 0;                 // (HBM read + write bytes in the model) / time
  Counters counters;
  std::vector<TileRecord> tiles;   // in completion order when recorded live
  // The kernel that ran ("fa2-mma", "hopper" …); empty in the recordings made before issue 33, whose
  // kernel the algorithm names (every Algorithm value is a FlashAttention-2 design or the materialising path).
  std::string kernel;
  std::vector<WarpPhaseRecord> warp_phases;  // sampled CTAs' warpgroup phases; empty unless recorded (issue 33)
};

// A device's peak rates, for the roofline (issue 15). Vendor datasheet figures, dense (no sparsity):
// NVIDIA H200 SXM: HBM3e 4.8 TB/s, bf16/fp16 tensor core 989 TFLOP/s, fp32 (CUDA cores) 67 TFLOP/s;
// H100 SXM: 3.35 TB/s, 989, 67. Unknown devices: std::nullopt (the roofline is not drawn).
struct DevicePeaks {
  std::string name;            // as nvidia-smi / cudaGetDeviceProperties names it
  double hbm_bytes_per_s = 0;  // bytes per second
  double tensor_flops = 0;     // bf16/fp16 tensor-core FLOP/s, dense
  double fp32_flops = 0;       // fp32 FLOP/s without tensor cores
  // The compute roof that applies to `a`: tensor cores for the 16-bit kernels, fp32 otherwise.
  double ComputeRoof(Algorithm a) const { return (a == Algorithm::TensorCoreBf16 || a == Algorithm::TensorCoreFp16) ? tensor_flops : fp32_flops; }
};
// Looks the device up by name ("NVIDIA H200", "NVIDIA H100 80GB HBM3", …); false when unknown.
bool PeaksFor(const std::string& device_name, DevicePeaks* out);

// FLOPs of a run as its TFLOP/s figure counts them (4·N_q·N_k·d·heads, halved for causal with
// N_q == N_k), and its arithmetic intensity against the modelled HBM traffic (FLOP per byte).
double RunFlops(const RunSummary& r);
double RunIntensity(const RunSummary& r);

}  // namespace bw::cuda
