// The GPU ring's recording; see ring_record.h. One step record per line, so a recording diffs well.
#include "cuda/ring_record.h"

#include "cuda/record_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "engine/ring.h"

namespace bw::cuda {

using nlohmann::json;

namespace {

const char* kStepFields[] = {"rank", "step", "shard", "pairs", "idle", "bytes_sent", "launches", "transfer_start_ms",
                             "transfer_end_ms", "compute_start_ms", "compute_end_ms", "merge_end_ms"};
constexpr size_t kNumStepFields = sizeof kStepFields / sizeof kStepFields[0];

// Non-finite numbers (an error that was NaN or infinite) are written as null and read back as +∞.
json Finite(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

using Reader = detail::RecordReader;

}  // namespace

RingRecording RecordingFromSchedule(const RingSchedule& s, unsigned seed) {
  RingRecording r;
  r.ranks = s.ranks; r.n = s.n; r.d = s.d; r.heads = s.heads;
  r.order = engine::ToString(s.order);
  r.causal = s.causal;
  r.seed = seed;
  r.bytes_per_link_per_step = s.bytes_per_link_per_step;
  r.total_link_bytes = s.total_link_bytes;
  r.idle_rank_steps = s.idle_rank_steps;
  for (const auto& step : s.steps)
    for (const RingRankStep& rs : step) {
      RingStepRecord x;
      x.rank = rs.rank; x.step = rs.step; x.shard = rs.shard; x.pairs = rs.pairs; x.idle = rs.idle;
      x.bytes_sent = rs.bytes_sent;
      x.launches = static_cast<int>(rs.launches.size());
      r.steps.push_back(x);
    }
  return r;
}

std::string RingRecordingToJson(const RingRecording& r) {
  nlohmann::ordered_json head = {  // keys in this order (json would sort them)
      {"schema_version", 1},
      {"kind", "ring_run"},
      {"device", {{"name", r.device_name}, {"gpus", r.gpus}}},
      {"transport", r.transport},
      {"transport_note", r.transport_note},
      {"nccl_version", r.nccl_version},
      {"problem", {{"ranks", r.ranks}, {"order", r.order}, {"n", r.n}, {"d", r.d}, {"heads", r.heads},
                   {"causal", r.causal}, {"dtype", r.dtype}, {"seed", r.seed}}},
      {"bytes_per_link_per_step", r.bytes_per_link_per_step},
      {"total_link_bytes", r.total_link_bytes},
      {"idle_rank_steps", r.idle_rank_steps},
      {"timing", {{"ring_ms", r.ring_ms}, {"one_gpu_ms", r.one_gpu_ms}, {"warmup", r.warmup}}},
      {"check", {{"against", r.check.against}, {"max_abs_o", Finite(r.check.max_abs_o)},
                 {"max_abs_lse", Finite(r.check.max_abs_lse)}, {"tol_abs", r.check.tol_abs}, {"tol_rel", r.check.tol_rel},
                 {"tol_lse", r.check.tol_lse}, {"mismatches", r.check.mismatches}, {"nan", r.check.nan},
                 {"passed", r.check.passed}}},
      {"step_fields", kStepFields}};
  // The head object without its closing brace, then "steps" one record per line.
  std::string out = head.dump(2);
  out.resize(out.rfind('}'));
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  out += ",\n  \"steps\": [";
  for (size_t i = 0; i < r.steps.size(); ++i) {
    const RingStepRecord& s = r.steps[i];
    const json row = {s.rank, s.step, s.shard, s.pairs, s.idle, s.bytes_sent, s.launches, s.transfer_start_ms,
                      s.transfer_end_ms, s.compute_start_ms, s.compute_end_ms, s.merge_end_ms};
    out += (i ? ",\n    " : "\n    ") + row.dump();
  }
  out += "\n  ]\n}\n";
  return out;
}

RingRecording RingRecordingFromJson(const std::string& text, const std::string& source) {
  Reader rd{source};
  const json j = rd.Open(text, "ring_run");
  RingRecording r;
  const json& dev = rd.At(j, "device", "");
  r.device_name = rd.Str(dev, "name", "/device");
  r.gpus = static_cast<int>(rd.Int(dev, "gpus", "/device"));
  r.transport = rd.Str(j, "transport", "");
  if (r.transport != "local" && r.transport != "nccl") rd.Fail("/transport", "expected \"local\" or \"nccl\"");
  r.transport_note = rd.Str(j, "transport_note", "");
  r.nccl_version = rd.Str(j, "nccl_version", "");
  const json& p = rd.At(j, "problem", "");
  r.ranks = static_cast<int>(rd.Int(p, "ranks", "/problem"));
  if (r.ranks < 1 || r.ranks > 8) rd.Fail("/problem/ranks", std::to_string(r.ranks) + " is outside 1\u20138");
  r.order = rd.Str(p, "order", "/problem");
  if (r.order != "contiguous" && r.order != "zigzag") rd.Fail("/problem/order", "expected \"contiguous\" or \"zigzag\"");
  r.n = static_cast<int>(rd.Int(p, "n", "/problem"));
  r.d = static_cast<int>(rd.Int(p, "d", "/problem"));
  r.heads = static_cast<int>(rd.Int(p, "heads", "/problem"));
  r.causal = rd.Bool(p, "causal", "/problem");
  r.dtype = rd.Str(p, "dtype", "/problem");
  r.seed = static_cast<unsigned>(rd.Int(p, "seed", "/problem"));
  r.bytes_per_link_per_step = rd.Int(j, "bytes_per_link_per_step", "");
  r.total_link_bytes = rd.Int(j, "total_link_bytes", "");
  r.idle_rank_steps = rd.Int(j, "idle_rank_steps", "");
  const json& t = rd.At(j, "timing", "");
  r.ring_ms = rd.Num(t, "ring_ms", "/timing");
  r.one_gpu_ms = rd.Num(t, "one_gpu_ms", "/timing");
  r.warmup = static_cast<int>(rd.Int(t, "warmup", "/timing"));
  const json& c = rd.At(j, "check", "");
  r.check.against = rd.Str(c, "against", "/check");
  r.check.max_abs_o = rd.Num(c, "max_abs_o", "/check", true);
  r.check.max_abs_lse = rd.Num(c, "max_abs_lse", "/check", true);
  r.check.tol_abs = rd.Num(c, "tol_abs", "/check");
  r.check.tol_rel = rd.Num(c, "tol_rel", "/check");
  r.check.tol_lse = rd.Num(c, "tol_lse", "/check");
  r.check.mismatches = rd.Int(c, "mismatches", "/check");
  r.check.nan = rd.Int(c, "nan", "/check");
  r.check.passed = rd.Bool(c, "passed", "/check");
  const json& fields = rd.At(j, "step_fields", "");
  if (!fields.is_array() || fields.size() != kNumStepFields) rd.Fail("/step_fields", "expected the 12 step fields");
  for (size_t i = 0; i < kNumStepFields; ++i)
    if (fields[i] != kStepFields[i]) rd.Fail("/step_fields/" + std::to_string(i), std::string("expected \"") + kStepFields[i] + "\"");
  const json& steps = rd.At(j, "steps", "");
  if (!steps.is_array()) rd.Fail("/steps", "expected an array");
  if (steps.size() != static_cast<size_t>(r.ranks) * r.ranks)
    rd.Fail("/steps", "expected ranks \u00d7 ranks = " + std::to_string(r.ranks * r.ranks) + " records, found " +
                          std::to_string(steps.size()));
  for (size_t i = 0; i < steps.size(); ++i) {
    const std::string path = "/steps/" + std::to_string(i);
    const json& a = steps[i];
    if (!a.is_array() || a.size() != kNumStepFields) rd.Fail(path, "expected 12 fields");
    RingStepRecord s;
    s.rank = static_cast<int>(rd.IntV(a[0], path + "/0"));
    s.step = static_cast<int>(rd.IntV(a[1], path + "/1"));
    if (s.rank != static_cast<int>(i) % r.ranks || s.step != static_cast<int>(i) / r.ranks)
      rd.Fail(path, "records go step by step, rank by rank");
    s.shard = static_cast<int>(rd.IntV(a[2], path + "/2"));
    s.pairs = rd.IntV(a[3], path + "/3");
    s.idle = rd.BoolV(a[4], path + "/4");
    s.bytes_sent = rd.IntV(a[5], path + "/5");
    s.launches = static_cast<int>(rd.IntV(a[6], path + "/6"));
    s.transfer_start_ms = rd.NumV(a[7], path + "/7");
    s.transfer_end_ms = rd.NumV(a[8], path + "/8");
    s.compute_start_ms = rd.NumV(a[9], path + "/9");
    s.compute_end_ms = rd.NumV(a[10], path + "/10");
    s.merge_end_ms = rd.NumV(a[11], path + "/11");
    r.steps.push_back(s);
  }
  return r;
}

RingCheck CompareRing(const std::vector<float>& o, const std::vector<float>& lse, const std::vector<float>& ref_o,
                      const std::vector<float>& ref_lse, int heads, int n, int d, const std::vector<int>& rows,
                      const std::string& against) {
  const size_t need_o = static_cast<size_t>(heads) * n * d, need_l = static_cast<size_t>(heads) * n;
  if (o.size() != need_o || ref_o.size() != need_o || lse.size() != need_l || ref_lse.size() != need_l)
    throw std::invalid_argument("CompareRing: O, lse or the reference do not have (heads, N, d) / (heads, N) elements");
  RingCheck c;
  c.against = against;
  c.tol_abs = kRingTolAbs; c.tol_rel = kRingTolRel; c.tol_lse = kRingTolLse;
  const double inf = std::numeric_limits<double>::infinity();
  auto visit = [&](int r) {
    for (int h = 0; h < heads; ++h) {
      const size_t i = static_cast<size_t>(h) * n + r;
      const double el = std::abs(static_cast<double>(lse[i]) - ref_lse[i]);
      const bool both_inf = std::isinf(lse[i]) && lse[i] == ref_lse[i];  // −∞ = −∞: a row with no key
      if (std::isnan(lse[i])) ++c.nan;
      if (!both_inf) {
        if (!(el <= c.tol_lse)) ++c.mismatches;
        c.max_abs_lse = std::isnan(el) ? inf : std::max(c.max_abs_lse, el);
      }
      for (int k = 0; k < d; ++k) {
        const double x = o[i * d + k], ref = ref_o[i * d + k], e = std::abs(x - ref);
        if (std::isnan(x)) ++c.nan;
        if (!(e <= c.tol_abs + c.tol_rel * std::abs(ref))) ++c.mismatches;  // NaN fails
        c.max_abs_o = std::isnan(e) ? inf : std::max(c.max_abs_o, e);
      }
    }
  };
  if (rows.empty()) {
    for (int r = 0; r < n; ++r) visit(r);
  } else {
    for (int r : rows) visit(r);
  }
  c.passed = c.mismatches == 0 && c.nan == 0;
  return c;
}

std::string RingStepTable(const RingRecording& r) {
  std::ostringstream o;
  char line[256];
  std::snprintf(line, sizeof line, "%-4s %-4s %-5s %-9s %-9s %-9s %-9s %-9s %-9s\n", "step", "rank", "shard", "compute",
                "merge", "transfer", "hidden", "wait", "MB sent");
  o << line;
  std::vector<double> prev_merge_end(static_cast<size_t>(r.ranks), 0.0);
  struct Sum { double compute = 0, merge = 0, transfer = 0, hidden = 0, wait = 0; };
  std::vector<Sum> sum(static_cast<size_t>(r.ranks));
  for (const RingStepRecord& s : r.steps) {
    const double compute = s.compute_end_ms - s.compute_start_ms, merge = s.merge_end_ms - s.compute_end_ms;
    const bool sent = s.transfer_start_ms >= 0;
    const double transfer = sent ? s.transfer_end_ms - s.transfer_start_ms : 0;
    // the transfer's share that ran while this step's kernels and merges ran
    const double overlap =
        sent ? std::max(0.0, std::min(s.transfer_end_ms, s.merge_end_ms) - std::max(s.transfer_start_ms, s.compute_start_ms)) : 0;
    const double wait = s.compute_start_ms - prev_merge_end[static_cast<size_t>(s.rank)];
    prev_merge_end[static_cast<size_t>(s.rank)] = s.merge_end_ms;
    Sum& t = sum[static_cast<size_t>(s.rank)];
    t.compute += compute; t.merge += merge; t.transfer += transfer; t.hidden += overlap; t.wait += wait;
    char hidden[32] = "-";
    if (sent && transfer > 0) std::snprintf(hidden, sizeof hidden, "%.0f%%", 100.0 * overlap / transfer);
    std::snprintf(line, sizeof line, "%-4d %-4d %-5d %-9.4f %-9.4f %-9.4f %-9s %-9.4f %-9.3f\n", s.step, s.rank, s.shard, compute,
                  merge, transfer, hidden, wait, static_cast<double>(s.bytes_sent) / 1e6);
    o << line;
  }
  // per rank over the steps: the compute stream's waits are the communication the overlap did not hide
  for (size_t k = 0; k < sum.size(); ++k) {
    std::snprintf(line, sizeof line,
                  "rank %zu: compute %.4f ms, merge %.4f ms, transfer %.4f ms (%.0f%% under compute), compute stream "
                  "waited %.4f ms\n",
                  k, sum[k].compute, sum[k].merge, sum[k].transfer, sum[k].transfer > 0 ? 100.0 * sum[k].hidden / sum[k].transfer : 0.0,
                  sum[k].wait);
    o << line;
  }
  return o.str();
}

}  // namespace bw::cuda
