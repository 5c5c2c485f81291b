// The split-KV decode plan and its traffic model; see decode_plan.h.
#include "cuda/decode_plan.h"

#include "engine/split_kv.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace bw::cuda {
namespace {

void Require(bool ok, const char* field, const std::string& why) {
  if (!ok) throw std::invalid_argument(std::string("decode plan: ") + field + ": " + why);
}

TensorTraffic Read(std::int64_t elems, int bytes) { return {elems, elems * bytes, 0, 0}; }
TensorTraffic Write(std::int64_t elems, int bytes) { return {0, 0, elems, elems * bytes}; }

}  // namespace

DecodePlan PlanDecode(const DecodeShape& s, int sm_count, int ctas_per_sm, int forced_splits) {
  Require(s.batch >= 1, "batch", "must be ≥ 1");
  Require(s.q_len >= 1 && s.q_len <= 8, "q_len", "must be in 1 … 8");
  Require(s.n_kv >= s.q_len, "n_kv", "must be ≥ q_len");
  Require(s.heads_kv >= 1 && s.heads_q >= s.heads_kv && s.heads_q % s.heads_kv == 0, "heads",
          "H_q must be a positive multiple of H_kv");
  Require(s.d == 64 || s.d == 128, "d", "must be 64 or 128");
  Require(s.page_size >= 0, "page_size", "must be ≥ 0 (0 = contiguous)");
  if (s.page_size > 0)
    Require(s.physical_pages >= s.batch * s.PagesPerSeq(), "physical_pages", "the pool must hold every sequence's pages");
  Require(sm_count >= 1 && ctas_per_sm >= 1, "sm_count", "must be ≥ 1");

  DecodePlan p;
  p.shape = s;
  p.group = s.Group();
  p.rows = p.group * s.q_len;
  p.row_groups = (p.rows + kDecodeMaxRows - 1) / kDecodeMaxRows;
  p.rows_per_cta = p.rows <= 16 ? 16 : 32;
  p.tiles = (s.n_kv + kDecodeBc - 1) / kDecodeBc;
  p.ctas_unsplit = static_cast<std::int64_t>(s.batch) * s.heads_kv * p.row_groups;
  p.slots = sm_count * ctas_per_sm;
  const int wanted = forced_splits > 0 ? std::min({forced_splits, p.tiles, 128})
                                       : bw::engine::ChooseSplitCount(p.ctas_unsplit, p.slots, p.tiles, 128);
  p.split_tiles = bw::engine::EvenSplit(p.tiles, wanted);
  p.splits = static_cast<int>(p.split_tiles.size());
  p.split_begin.push_back(0);
  int tile = 0;
  for (int t : p.split_tiles) {
    tile += t;
    p.split_begin.push_back(std::min(s.n_kv, tile * kDecodeBc));
  }
  p.grid = p.ctas_unsplit * p.splits;
  return p;
}

int PagesTouched(const DecodePlan& p, int split) {
  const int ps = p.shape.page_size;
  if (ps <= 0) return 0;
  const int b = p.split_begin[split], e = p.split_begin[split + 1];
  return e > b ? (e - 1) / ps - b / ps + 1 : 0;
}

DecodeCounters PredictDecodeCounters(const DecodePlan& p) {
  const DecodeShape& s = p.shape;
  const std::int64_t q_rows = static_cast<std::int64_t>(s.batch) * s.heads_q * s.q_len;  // query rows in all
  const std::int64_t kv_heads = static_cast<std::int64_t>(s.batch) * s.heads_kv * p.row_groups;
  const std::int64_t S = p.splits;
  DecodeCounters c;
  c.q = Read(q_rows * s.d * S, 2);
  c.k = Read(kv_heads * s.n_kv * s.d, 2);
  c.v = Read(kv_heads * s.n_kv * s.d, 2);
  std::int64_t pages = 0;
  for (int i = 0; i < p.splits; ++i) pages += PagesTouched(p, i);
  c.table = Read(kv_heads * pages, 4);
  if (p.Split()) {
    c.o_part = {q_rows * S * s.d, q_rows * S * s.d * 4, q_rows * S * s.d, q_rows * S * s.d * 4};
    c.lse_part = {q_rows * S, q_rows * S * 4, q_rows * S, q_rows * S * 4};
    c.combine_rows = q_rows;
  }
  c.o = Write(q_rows * s.d, 2);
  c.ctas = p.grid;
  c.tiles = kv_heads * p.tiles;
  return c;
}

bool operator==(const DecodeCounters& a, const DecodeCounters& b) {
  return a.q == b.q && a.k == b.k && a.v == b.v && a.table == b.table && a.o_part == b.o_part &&
         a.lse_part == b.lse_part && a.o == b.o && a.ctas == b.ctas && a.tiles == b.tiles && a.combine_rows == b.combine_rows;
}

std::string ToString(const DecodeCounters& c) {
  std::ostringstream os;
  auto t = [&](const char* n, const TensorTraffic& x) {
    os << n << " r" << x.read_elems << "/" << x.read_bytes << "B w" << x.write_elems << "/" << x.write_bytes << "B; ";
  };
  t("Q", c.q); t("K", c.k); t("V", c.v); t("table", c.table); t("O_s", c.o_part); t("lse_s", c.lse_part); t("O", c.o);
  os << "ctas " << c.ctas << " tiles " << c.tiles << " combine_rows " << c.combine_rows;
  return os.str();
}

bw::engine::SplitKvCounters ToEngineCounters(const DecodeCounters& c) {
  bw::engine::SplitKvCounters e;
  e.q_reads = c.q.read_elems;
  e.k_reads = c.k.read_elems;
  e.v_reads = c.v.read_elems;
  e.table_reads = c.table.read_elems;
  e.partial_o_writes = c.o_part.write_elems;
  e.lse_writes = c.lse_part.write_elems;
  e.partial_o_reads = c.o_part.read_elems;
  e.lse_reads = c.lse_part.read_elems;
  e.o_writes = c.o.write_elems;
  return e;
}

}  // namespace bw::cuda
