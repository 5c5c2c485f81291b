// Scenario kind dispatch; see scenario_model.h.
#include "view/scenario_model.h"

#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "view/attention_model.h"
#include "view/chart_model.h"
#include "view/decode_model.h"
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

std::shared_ptr<const ScenarioModel> ParseScenarioModel(const nlohmann::json& doc, const std::string& file) {
  const data::JsonReader r(file);
  r.ExpectObject(doc, "");
  const std::string kind = r.String(r.Require(doc, "", "kind"), "/kind");
  if (kind == "single_query") return std::make_shared<SingleQueryModel>(data::ParseSingleQueryScenario(doc, file));
  if (kind == "attention") return std::make_shared<AttentionModel>(data::ParseAttentionScenario(doc, file));
  if (kind == "moe") return std::make_shared<MoeModel>(data::ParseMoeScenario(doc, file));
  if (kind == "chart") return std::make_shared<ChartModel>(data::ParseChartScenario(doc, file));
  if (kind == "decode") return std::make_shared<DecodeModel>(data::ParseDecodeScenario(doc, file));
  if (kind == "ring") return std::make_shared<RingModel>(data::ParseRingScenario(doc, file));
  r.Fail("/kind", "unknown scenario kind \"" + kind + "\" (expected \"single_query\", \"attention\", \"moe\", \"chart\", \"decode\" or \"ring\")");
}

std::shared_ptr<const ScenarioModel> LoadScenarioModel(const std::filesystem::path& path) {
  return ParseScenarioModel(data::ReadJsonFile(path), path.string());
}

}  // namespace bw::view
