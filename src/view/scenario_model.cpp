// Scenario kind dispatch; see scenario_model.h.
#include "view/scenario_model.h"

#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "view/attention_model.h"
#include "view/chart_model.h"
#include "view/decode_model.h"
#include "view/gpu_run_model.h"
#include "view/moe_model.h"
#include "view/ring_model.h"
#include "view/single_query_model.h"

namespace bw::view {

void AppendPanelTexts(const std::vector<PanelSection>& sections, std::vector<std::string>& texts) {
  for (const auto& sec : sections) {
    texts.push_back(sec.title);
    texts.insert(texts.end(), sec.columns.begin(), sec.columns.end());
    for (const auto& r : sec.rows) texts.push_back(r.name + r.value);
  }
}

ScenarioData ParseScenarioData(const nlohmann::json& doc, const std::string& file) {
  const data::JsonReader r(file);
  r.ExpectObject(doc, "");
  const std::string kind = r.String(r.Require(doc, "", "kind"), "/kind");
  if (kind == "single_query") return data::ParseSingleQueryScenario(doc, file);
  if (kind == "attention") return data::ParseAttentionScenario(doc, file);
  if (kind == "moe") return data::ParseMoeScenario(doc, file);
  if (kind == "chart") return data::ParseChartScenario(doc, file);
  if (kind == "decode") return data::ParseDecodeScenario(doc, file);
  if (kind == "ring") return data::ParseRingScenario(doc, file);
  if (kind == "gpu_run") return data::ParseGpuRunScenario(doc, file);
  r.Fail("/kind", "unknown scenario kind \"" + kind + "\" (expected \"single_query\", \"attention\", \"moe\", \"chart\", \"decode\", \"ring\" or \"gpu_run\")");
}

namespace {
std::shared_ptr<const ScenarioModel> Make(data::SingleQueryScenario sc, const ModelOptions&) { return std::make_shared<SingleQueryModel>(std::move(sc)); }
std::shared_ptr<const ScenarioModel> Make(data::AttentionScenario sc, const ModelOptions& o) {
  return std::make_shared<AttentionModel>(std::move(sc), o.comparison);
}
std::shared_ptr<const ScenarioModel> Make(data::MoeScenario sc, const ModelOptions&) { return std::make_shared<MoeModel>(std::move(sc)); }
std::shared_ptr<const ScenarioModel> Make(data::ChartScenario sc, const ModelOptions&) { return std::make_shared<ChartModel>(std::move(sc)); }
std::shared_ptr<const ScenarioModel> Make(data::DecodeScenario sc, const ModelOptions&) { return std::make_shared<DecodeModel>(std::move(sc)); }
std::shared_ptr<const ScenarioModel> Make(data::RingScenario sc, const ModelOptions&) { return std::make_shared<RingModel>(std::move(sc)); }
std::shared_ptr<const ScenarioModel> Make(data::GpuRunScenario sc, const ModelOptions&) { return std::make_shared<GpuRunModel>(std::move(sc)); }
}  // namespace

std::shared_ptr<const ScenarioModel> MakeScenarioModel(ScenarioData data, const ModelOptions& options) {
  return std::visit([&](auto&& sc) { return Make(std::move(sc), options); }, std::move(data));
}

std::shared_ptr<const ScenarioModel> ParseScenarioModel(const nlohmann::json& doc, const std::string& file, const ModelOptions& options) {
  return MakeScenarioModel(ParseScenarioData(doc, file), options);
}

std::shared_ptr<const ScenarioModel> LoadScenarioModel(const std::filesystem::path& path, const ModelOptions& options) {
  return ParseScenarioModel(data::ReadJsonFile(path), path.string(), options);
}

}  // namespace bw::view
