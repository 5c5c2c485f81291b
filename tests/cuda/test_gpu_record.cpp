// test_gpu_record.cpp — runs without a GPU: the recorded-run JSON round-trips exactly, bad files
// fail with the JSON path, the shipped H200 recording (assets/gpu/) is self-consistent (its tile
// records add up to its counters, which equal the traffic model for its problem), and the model's
// tile classes behave at tails and for both causal alignments.
#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "cuda/hopper_cuda.h"
#include "cuda/gpu_replay.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <tuple>

#include <nlohmann/json.hpp>

namespace bw::cuda {
namespace {

RunSummary Sample() {
  RunSummary r;
  r.device_name = "NVIDIA H200";
  r.sm_count = 132;
  r.n_q = r.n_k = 128; r.d = r.d_v = 64; r.b_r = r.b_c = 64;
  r.mask = MaskKind::CausalTopLeft;
  r.kernel_ms = 0.5; r.tflops = 1.25; r.gbps = 10.5;
  r.counters.q = {8192, 32768, 0, 0};
  r.counters.tiles_total = 4; r.counters.tiles_skipped = 1;
  for (std::uint32_t i = 0; i < 2; ++i)
    for (std::uint32_t j = 0; j < 2; ++j) {
      TileRecord t;
      t.q_tile = i; t.kv_tile = j; t.smid = 3 * i + j; t.t_start_ns = 1'000'000'000'000ull + 100 * (2 * i + j);
      t.t_end_ns = t.t_start_ns + 50; t.bytes_loaded = 1000 + j; t.flags = (j > i) ? kTileSkipped : 0u; t.ready = 1;
      r.tiles.push_back(t);
    }
  return r;
}

TEST(GpuRecord, JsonRoundTripsExactly) {
  const RunSummary r = Sample();
  const RunSummary back = RunFromJson(RunToJson(r));
  EXPECT_EQ(back.device_name, r.device_name);
  EXPECT_EQ(back.mask, r.mask);
  EXPECT_EQ(back.counters, r.counters);
  ASSERT_EQ(back.tiles.size(), r.tiles.size());
  for (size_t i = 0; i < r.tiles.size(); ++i) {
    EXPECT_EQ(back.tiles[i].t_start_ns, r.tiles[i].t_start_ns);
    EXPECT_EQ(back.tiles[i].t_end_ns, r.tiles[i].t_end_ns);
    EXPECT_EQ(back.tiles[i].smid, r.tiles[i].smid);
    EXPECT_EQ(back.tiles[i].flags, r.tiles[i].flags);
  }
}

// Issue 33: the kernel's name and the sampled CTAs' warpgroup phases round-trip exactly (a synthetic
// run, test data only); a recording without them writes neither key and reads back empty.
TEST(GpuRecord, KernelAndWarpPhasesRoundTrip) {
  RunSummary r = Sample();
  r.kernel = "hopper";
  const WarpPhase phases[] = {WarpPhase::kTmaIssue, WarpPhase::kTmaWait, WarpPhase::kWgmmaS, WarpPhase::kSoftmax,
                              WarpPhase::kWgmmaPV, WarpPhase::kWrite, WarpPhase::kIdle};
  for (int k = 0; k < 7; ++k) {
    WarpPhaseRecord w;
    w.cta = 1; w.smid = 3; w.warpgroup = static_cast<std::uint8_t>(k % 3); w.phase = phases[k];
    w.q_tile = 1; w.kv_tile = static_cast<std::uint32_t>(k % 2); w.t_start_ns = 100u * k; w.t_end_ns = 100u * k + 70;
    r.warp_phases.push_back(w);
  }
  const std::string text = RunToJson(r);
  EXPECT_NE(text.find("\"warp_phases\": [\n    [1,3,0,\"tma_issue\",1,0,0,70],\n"), std::string::npos) << text;
  const RunSummary back = RunFromJson(text);
  EXPECT_EQ(back.kernel, "hopper");
  ASSERT_EQ(back.warp_phases.size(), 7u);
  for (size_t k = 0; k < 7; ++k) {
    const auto &a = back.warp_phases[k], &b = r.warp_phases[k];
    EXPECT_EQ(std::tie(a.cta, a.smid, a.warpgroup, a.phase, a.q_tile, a.kv_tile, a.t_start_ns, a.t_end_ns),
              std::tie(b.cta, b.smid, b.warpgroup, b.phase, b.q_tile, b.kv_tile, b.t_start_ns, b.t_end_ns));
  }
  const std::string old = RunToJson(Sample());
  EXPECT_EQ(old.find("warp_phases"), std::string::npos);
  EXPECT_EQ(old.find("kernel\""), std::string::npos);
  EXPECT_TRUE(RunFromJson(old).warp_phases.empty());
  EXPECT_TRUE(RunFromJson(old).kernel.empty());
  // A bad phase is refused at its path, with the reason.
  std::string bad = text;
  bad.replace(bad.find("\"softmax\""), 9, "\"rescale\"");
  try {
    RunFromJson(bad, "p.json");
    ADD_FAILURE() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("p.json: /warp_phases/3/3: unknown value 'rescale'"), std::string::npos) << e.what();
  }
}

TEST(GpuRecord, BadFilesNameThePath) {
  std::string j = RunToJson(Sample());
  j.replace(j.find("\"causal_top_left\""), 17, "\"diagonal\"");
  try {
    RunFromJson(j, "x.json");
    FAIL() << "should throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("x.json: /problem/mask"), std::string::npos) << e.what();
  }
  EXPECT_THROW(RunFromJson("{", "y.json"), std::runtime_error);
}

// Issue 31's hostile recordings: each number a replay allocates or indexes by is bounded, and a
// file past a bound is refused at its field (was: SIGSEGV on smid 2^32 − 1, 2.1 GB for sm_count
// 2^31 − 1, 1.6 GB for 1×1 tiles at n 8192, "cannot create std::vector larger than max_size()",
// and n_q = −5 accepted and drawn as "N −5").
TEST(GpuRecord, OutOfBoundsFieldsAreRefusedAtTheirPath) {
  const nlohmann::json good = nlohmann::json::parse(RunToJson(Sample()));
  struct Case {
    const char* pointer;
    nlohmann::json value;
    const char* path;
  };
  const Case cases[] = {
      {"/tiles/0/2", 4294967295u, "/tiles/0/2"},
      {"/tiles/1/2", 132, "/tiles/1/2"},
      {"/tiles/0/0", 2, "/tiles/0/0"},
      {"/tiles/0/1", 7, "/tiles/0/1"},
      {"/tiles/0/8", 1, "/tiles/0/8"},
      {"/tiles/0/5", 4294967296LL, "/tiles/0/5"},
      {"/device/sm_count", 2147483647, "/device/sm_count"},
      {"/device/sm_count", 0, "/device/sm_count"},
      {"/problem/n_q", -5, "/problem/n_q"},
      {"/problem/n_q", 2147483647, "/problem/n_q"},
      {"/problem/b_r", 0, "/problem/b_r"},
      {"/problem/heads", 0, "/problem/heads"},
      {"/problem/d", 100000, "/problem/d"},
      {"/timing/kernel_ms", -1.0, "/timing/kernel_ms"},
      {"/counters/tiles_total", 5, "/counters/tiles_total"},
      {"/counters/Q/read_bytes", -3, "/counters/Q/read_bytes"},
      {"/t0_ns", 18446744073709551615u, "/t0_ns"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.pointer) + " = " + c.value.dump());
    nlohmann::json j = good;
    j[nlohmann::json::json_pointer(c.pointer)] = c.value;
    try {
      RunFromJson(j.dump(), "bad.json");
      ADD_FAILURE() << "accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("bad.json: ") + c.path + ": "), std::string::npos) << e.what();
    }
  }
  // 1×1 tiles at n 8192: a 67-million-cell grid, refused before anything is allocated.
  nlohmann::json j = good;
  j["problem"]["n_q"] = j["problem"]["n_k"] = 8192;
  j["problem"]["b_r"] = j["problem"]["b_c"] = 1;
  try {
    RunFromJson(j.dump(), "grid.json");
    ADD_FAILURE() << "accepted a 2^26-cell grid";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("grid.json: /problem/b_r: the tile grid"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("67108864 cells"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(RunFromJson(good.dump(), "good.json"));
}

TEST(GpuRecord, ShippedH200RunsAreConsistent) {
  // Every recording in assets/gpu (issue 6's fp32 run, issue 15's fp32 / bf16 and issue 33's Hopper runs,
  // N = 8192, d = 128).
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(BLOCKWISE_ROOT) / "assets/gpu"))
    if (e.path().extension() == ".json") paths.push_back(e.path());
  ASSERT_GE(paths.size(), 5u);
  for (const auto& path : paths) {
  SCOPED_TRACE(path.string());
  const RunSummary r = LoadRecordedRun(path.string());
  EXPECT_LT(std::filesystem::file_size(path), 2u << 20);
  EXPECT_EQ((long long)r.tiles.size(), r.counters.tiles_total);
  long long loaded = 0, written = 0, skipped = 0;
  for (const auto& t : r.tiles) {
    loaded += t.bytes_loaded;
    written += t.bytes_written;
    skipped += (t.flags & kTileSkipped) ? 1 : 0;
    EXPECT_LT(t.smid, (unsigned)r.sm_count);
  }
  const Counters& c = r.counters;
  EXPECT_EQ(loaded, c.q.read_bytes + c.k.read_bytes + c.v.read_bytes);
  EXPECT_EQ(written, c.o.write_bytes + c.l.write_bytes);
  EXPECT_EQ(skipped, c.tiles_skipped);
  // the counters equal the model for the recorded problem (data values do not matter to it)
  Problem p;
  p.n_q = r.n_q; p.n_k = r.n_k; p.d = r.d; p.d_v = r.d_v; p.heads = r.heads;
  p.mask.kind = r.mask;
  ASSERT_TRUE(r.mask != MaskKind::KeyPadding && r.mask != MaskKind::Explicit);
  // the Hopper kernel (issue 33) pads d to 64 or 128 and counts bytes as loaded: its own prediction
  EXPECT_EQ(c, r.kernel == "hopper" ? PredictHopperCounters(p) : PredictCounters(p, r.algorithm, Tiling{r.b_r, r.b_c}));
  if (r.kernel == "hopper") EXPECT_FALSE(r.warp_phases.empty()) << "the Hopper recordings carry their warp phases";
  EXPECT_GT(r.kernel_ms, 0.0);
  }
}

TEST(GpuReplay, ReleasesRecordsInEndTimeOrderAgainstTheCallersClock) {
  RunSummary r = Sample();  // ends at t0 + 50, 150, 250, 350 ns
  std::swap(r.tiles[0], r.tiles[3]);
  GpuReplay rp(r, 1e6);  // 1 GPU ns = 1 ms of replay
  EXPECT_EQ(rp.TilesTotal(), 4);
  EXPECT_NEAR(rp.DurationSeconds(), 0.35, 1e-9);
  EXPECT_TRUE(rp.Poll(0.01).empty());
  auto a = rp.Poll(0.16);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_LE(a[0].t_end_ns, a[1].t_end_ns);
  EXPECT_FALSE(rp.Done());
  EXPECT_EQ(rp.Poll(1.0).size(), 2u);
  EXPECT_TRUE(rp.Done());
  EXPECT_THROW(GpuReplay(r, 0.0), std::invalid_argument);
}

TEST(GpuModel, TileClassesAtTailsAndBothAlignments) {
  Problem p;
  p.n_q = 5; p.n_k = 9; p.d = p.d_v = 1;
  p.mask.kind = MaskKind::CausalTopLeft;
  // B_r = 2, B_c = 4: T_r = 3, T_c = 3
  auto c = ClassifyTiles(p, Tiling{2, 4});
  const std::vector<std::uint8_t> top_left = {2, 0, 0, 2, 0, 0, 2, 2, 0};  // row 4 sees keys 0..4
  EXPECT_EQ(c, top_left);
  p.mask.kind = MaskKind::CausalBottomRight;  // keep j <= i + 4
  c = ClassifyTiles(p, Tiling{2, 4});
  const std::vector<std::uint8_t> bottom_right = {1, 2, 0, 1, 2, 0, 2, 2, 2};
  EXPECT_EQ(c, bottom_right);
  const Counters k = PredictCounters(p, Algorithm::TiledFp32, Tiling{2, 4});
  EXPECT_EQ(k.tiles_total, 9);
  EXPECT_EQ(k.tiles_skipped, 2);
  EXPECT_EQ(k.q.read_elems, 5);
  EXPECT_EQ(k.k.read_elems, 4 + 4 + 4 + 4 + 4 + 4 + 1);  // tiles (0,0),(0,1),(1,0),(1,1),(2,0),(2,1),(2,2)
  EXPECT_EQ(k.o.write_bytes, 5 * 4);
  EXPECT_EQ(k.s.write_elems, 0);
}

}  // namespace
}  // namespace bw::cuda
