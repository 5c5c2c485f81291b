// Scenario file, kind "ring"; see ring_scenario.h for the format.
#include "data/ring_scenario.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace bw::data {

RingScenario ParseRingScenario(const nlohmann::json& doc, const std::string& file) {
  JsonReader r(file);
  RingScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "ring", 1,
                            {"weights", "logits", "values", "devices", "order", "causal", "d", "element_bytes"});

  const bool has_w = doc.contains("weights"), has_s = doc.contains("logits");
  if (has_w == has_s) r.Fail("", has_w ? "give either \"weights\" or \"logits\", not both" : "\"weights\" or \"logits\" is required");
  const std::string key = has_w ? "weights" : "logits", path = "/" + key;
  const auto& rows = doc[key];
  r.ExpectArray(rows, path, 1);
  const int n = static_cast<int>(rows.size());
  if (n > kMaxRingRows) r.Fail(path, std::to_string(n) + " rows; the limit is " + std::to_string(kMaxRingRows));
  engine::AttentionMatrix S(n, n);
  bool exact = has_w;
  std::vector<std::vector<engine::Rational>> W(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::string row_path = JsonPath(path, static_cast<size_t>(i));
    r.ExpectArray(rows[i], row_path, 1);
    if (static_cast<int>(rows[i].size()) != n)
      r.Fail(row_path, "has " + std::to_string(rows[i].size()) + " entries; N = " + std::to_string(n) + " rows need N each (N_q = N_k)");
    for (int c = 0; c < n; ++c) {
      const auto& v = rows[i][c];
      const std::string p = JsonPath(row_path, static_cast<size_t>(c));
      const double x = r.FiniteNumber(v, p);
      // Every score is finite: the engine holds given scores as Q = S, K = I (AttentionProblem::
      // FromLogits) and forms Q·Kᵀ, where a −∞ would meet a 0. A ring scenario masks with "causal".
      if (has_w && x <= 0) r.Fail(p, "weight is " + std::string(x < 0 ? "negative" : "0") + "; a ring scenario's weights are e^s > 0 (mask with \"causal\")");
      S(i, c) = has_w ? std::log(x) : x;
      if (exact && v.is_number_integer() && std::abs(x) < 1e15) W[static_cast<size_t>(i)].emplace_back(v.get<long>());
      else exact = false;
    }
  }

  const auto& values = r.Require(doc, "", "values");
  r.ExpectArray(values, "/values", 1);
  if (static_cast<int>(values.size()) != n)
    r.Fail("/values", "has " + std::to_string(values.size()) + " entries but \"" + key + "\" has " + std::to_string(n) + " rows");
  const bool vector_values = values[0].is_array();
  const int d_v = vector_values ? static_cast<int>(values[0].size()) : 1;
  if (d_v < 1 || d_v > 64) r.Fail("/values/0", "d_v = " + std::to_string(d_v) + "; a ring scenario takes 1 to 64");
  engine::AttentionMatrix V(n, d_v);
  std::vector<std::vector<engine::Rational>> EV(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const std::string row_path = JsonPath("/values", static_cast<size_t>(i));
    if (values[i].is_array() != vector_values)
      r.Fail(row_path, vector_values ? "expected a row like the first one (an array)" : "expected a number like the first value");
    if (vector_values && static_cast<int>(values[i].size()) != d_v)
      r.Fail(row_path, "has " + std::to_string(values[i].size()) + " components; the first row has " + std::to_string(d_v));
    for (int c = 0; c < d_v; ++c) {
      const auto& x = vector_values ? values[i][c] : values[i];
      const double d = r.FiniteNumber(x, vector_values ? JsonPath(row_path, static_cast<size_t>(c)) : row_path);
      V(i, c) = d;
      if (exact && x.is_number_integer() && std::abs(d) < 1e15) EV[static_cast<size_t>(i)].emplace_back(x.get<long>());
      else exact = false;
    }
  }

  engine::RingProblem& p = sc.problem;
  const bool causal = doc.contains("causal") && [&] {
    if (!doc["causal"].is_boolean()) r.Fail("/causal", "expected true or false");
    return doc["causal"].get<bool>();
  }();
  p.attention = engine::AttentionProblem::FromLogits(S, V, causal ? engine::Mask::Causal() : engine::Mask::None());
  const auto order = r.String(r.Require(doc, "", "order"), "/order");
  if (order == "contiguous") p.order = engine::RingOrder::kContiguous;
  else if (order == "zigzag") p.order = engine::RingOrder::kZigZag;
  else r.Fail("/order", "expected \"contiguous\" or \"zigzag\", found \"" + order + "\"");
  const int chunks_per_device = p.order == engine::RingOrder::kZigZag ? 2 : 1;
  p.devices = static_cast<int>(r.Integer(r.Require(doc, "", "devices"), "/devices", 1, kMaxRingDevices));
  if (p.devices * chunks_per_device > n)
    r.Fail("/devices", std::to_string(p.devices) + " devices" + (chunks_per_device == 2 ? " in the zig-zag order (two chunks each)" : "") +
                           " need at least " + std::to_string(p.devices * chunks_per_device) + " rows; there are " + std::to_string(n));
  p.key_width = doc.contains("d") ? static_cast<int>(r.Integer(doc["d"], "/d", 1, 1024)) : d_v;
  if (doc.contains("element_bytes")) p.element_bytes = static_cast<int>(r.Integer(doc["element_bytes"], "/element_bytes", 1, 8));
  if (exact) {
    p.exact_weights = std::move(W);
    p.exact_values = std::move(EV);
  }
  return sc;
}

RingScenario LoadRingScenario(const std::filesystem::path& path) { return ParseRingScenario(ReadJsonFile(path), path.string()); }

}  // namespace bw::data
