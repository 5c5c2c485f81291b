// Scenario file v1 loader; see scenario.h for the format.
#include "data/scenario.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "data/json_file.h"

namespace bw::data {

engine::SingleQueryProblem ParseQueryProblem(const JsonReader& r, const nlohmann::json& doc) {
  engine::SingleQueryProblem p;
  const bool has_w = doc.contains("weights"), has_s = doc.contains("logits");
  if (has_w == has_s) r.Fail("", has_w ? "give either \"weights\" or \"logits\", not both" : "\"weights\" or \"logits\" is required");
  const std::string score_key = has_w ? "weights" : "logits";
  const std::string score_path = "/" + score_key;
  p.score_kind = has_w ? engine::ScoreKind::kWeights : engine::ScoreKind::kLogits;
  const auto& scores = doc[score_key];
  r.ExpectArray(scores, score_path, 1);
  if (scores.size() > static_cast<size_t>(kMaxPositions))
    r.Fail(score_path, std::to_string(scores.size()) + " positions; the limit is " + std::to_string(kMaxPositions));
  const int n = static_cast<int>(scores.size());

  bool exact = has_w;
  std::vector<engine::Rational> exact_w;
  for (int i = 0; i < n; ++i) {
    const auto& v = scores[i];
    const std::string path = JsonPath(score_path, i);
    if (!has_w && v.is_string() && v.get<std::string>() == "-inf") {
      p.scores.push_back(-std::numeric_limits<double>::infinity());
      continue;
    }
    const double s = r.FiniteNumber(v, path);
    if (has_w && s < 0) r.Fail(path, "weight is negative (weights are e^s > 0; 0 masks a position)");
    p.scores.push_back(s);
    if (exact && v.is_number_integer() && std::abs(s) < 1e15) exact_w.emplace_back(v.get<long>());
    else exact = false;
  }

  const auto& values = r.Require(doc, "", "values");
  r.ExpectArray(values, "/values", 1);
  if (static_cast<int>(values.size()) != n)
    r.Fail("/values", "has " + std::to_string(values.size()) + " entries but \"" + score_key + "\" has " +
                          std::to_string(n));
  const bool vector_values = values[0].is_array();
  const int d_v = vector_values ? static_cast<int>(values[0].size()) : 1;
  if (vector_values && d_v < 1) r.Fail("/values/0", "a value row needs at least one component");
  if (d_v > kMaxValueDim) r.Fail("/values/0", "d_v = " + std::to_string(d_v) + "; the limit is " + std::to_string(kMaxValueDim));
  p.values.resize(n, d_v);
  std::vector<std::vector<engine::Rational>> exact_v;
  for (int i = 0; i < n; ++i) {
    const std::string row_path = JsonPath("/values", i);
    const auto& row = values[i];
    if (row.is_array() != vector_values)
      r.Fail(row_path, vector_values ? "expected a row like the first one (an array)" : "expected a number like the first value");
    if (vector_values && static_cast<int>(row.size()) != d_v)
      r.Fail(row_path, "has " + std::to_string(row.size()) + " components; the first row has " + std::to_string(d_v));
    std::vector<engine::Rational> erow;
    for (int c = 0; c < d_v; ++c) {
      const auto& x = vector_values ? row[c] : row;
      const std::string path = vector_values ? JsonPath(row_path, c) : row_path;
      const double d = r.FiniteNumber(x, path);
      p.values(i, c) = d;
      if (exact && x.is_number_integer() && std::abs(d) < 1e15) erow.emplace_back(x.get<long>());
      else exact = false;
    }
    if (exact) exact_v.push_back(std::move(erow));
  }

  const auto& blocks = r.Require(doc, "", "block_sizes");
  r.ExpectArray(blocks, "/block_sizes", 1);
  long sum = 0;
  for (size_t j = 0; j < blocks.size(); ++j) {
    const auto b = r.Integer(blocks[j], JsonPath("/block_sizes", j), 1, kMaxPositions);
    p.block_sizes.push_back(static_cast<int>(b));
    sum += b;
  }
  if (sum != n)
    r.Fail("/block_sizes", "block sizes sum to " + std::to_string(sum) + " but there are " + std::to_string(n) +
                               " positions");
  if (BlockValues(p) > kMaxBlockValues)
    r.Fail("/block_sizes", std::to_string(p.block_sizes.size()) + " blocks x d_v " + std::to_string(p.values.cols()) + " = " +
                               std::to_string(BlockValues(p)) + " block values (each block's states are kept for the trace); the limit is " +
                               std::to_string(kMaxBlockValues) + " (use larger blocks or fewer value columns)");

  const auto mode = r.String(r.Require(doc, "", "mode"), "/mode");
  if (mode == "raw") p.mode = engine::SoftmaxMode::kRaw;
  else if (mode == "stable") p.mode = engine::SoftmaxMode::kStable;
  else r.Fail("/mode", "expected \"raw\" or \"stable\", found \"" + mode + "\"");

  if (exact) {
    p.exact_weights = std::move(exact_w);
    p.exact_values = std::move(exact_v);
  }
  // The engine's own check, mapped back to JSON paths (it is the single source of truth).
  if (auto err = engine::Validate(p)) {
    std::string path = err->field == "scores" ? score_path : "/" + err->field;
    if (err->index >= 0) path = JsonPath(path, err->index);
    r.Fail(path, err->reason);
  }
  return p;
}

SingleQueryScenario ParseSingleQueryScenario(const nlohmann::json& doc, const std::string& file) {
  JsonReader r(file);
  SingleQueryScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "single_query", 1, {"weights", "logits", "values", "block_sizes", "mode", "rescale_threshold"});

  sc.problem = ParseQueryProblem(r, doc);
  // FlashAttention-4's conditional rescale (engine/online_softmax.h, MergeConditional): τ in natural-log units.
  if (const auto it = doc.find("rescale_threshold"); it != doc.end()) {
    const double tau = r.FiniteNumber(*it, "/rescale_threshold");
    if (tau < 0) r.Fail("/rescale_threshold", "must be >= 0 (natural-log units), found " + it->dump());
    if (sc.problem.mode != engine::SoftmaxMode::kStable)
      r.Fail("/rescale_threshold", "needs \"mode\": \"stable\" (raw mode has no running max to keep)");
    sc.problem.rescale_threshold = tau;
    if (auto err = engine::Validate(sc.problem)) r.Fail("/" + err->field, err->reason);
  }
  return sc;
}


nlohmann::json SingleQueryScenarioToJson(const SingleQueryScenario& sc) {
  const auto& p = sc.problem;
  const bool exact = p.exact_weights && p.exact_values;
  const auto number = [](double x, const engine::Rational* q) -> nlohmann::json {
    if (q && engine::Denominator(*q) == 1 && abs(engine::Numerator(*q)) <= std::numeric_limits<long>::max())
      return engine::Numerator(*q).convert_to<long>();
    return x;
  };
  nlohmann::json j;
  j["$schema"] = "../../schemas/scenario-v1.schema.json";
  j["schema_version"] = 1;
  j["kind"] = "single_query";
  if (!sc.title.zh.empty() || !sc.title.en.empty()) j["title"] = {{"zh", sc.title.zh}, {"en", sc.title.en}};
  nlohmann::json scores = nlohmann::json::array(), values = nlohmann::json::array();
  for (size_t i = 0; i < p.scores.size(); ++i) {
    if (p.score_kind == engine::ScoreKind::kLogits && std::isinf(p.scores[i])) scores.push_back("-inf");
    else scores.push_back(number(p.scores[i], exact ? &(*p.exact_weights)[i] : nullptr));
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index c = 0; c < p.values.cols(); ++c)
      row.push_back(number(p.values(static_cast<Eigen::Index>(i), c), exact ? &(*p.exact_values)[i][c] : nullptr));
    values.push_back(p.values.cols() == 1 ? row[0] : row);
  }
  j[p.score_kind == engine::ScoreKind::kWeights ? "weights" : "logits"] = scores;
  j["values"] = values;
  j["block_sizes"] = p.block_sizes;
  j["mode"] = engine::ToString(p.mode);
  if (p.rescale_threshold) j["rescale_threshold"] = *p.rescale_threshold;
  return j;
}

SingleQueryScenario LoadSingleQueryScenario(const std::filesystem::path& path) {
  return ParseSingleQueryScenario(ReadJsonFile(path), path.string());
}

}  // namespace bw::data
