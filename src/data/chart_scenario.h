// Scenario file, kind "chart": a small labelled chart with no engine run — columns (categories),
// items placed in them, and labelled links between items. The glossary uses it to tell apart things
// that share a name (Triton the kernel language vs Triton Inference Server).
//   { "$schema": "../../schemas/scenario-chart.schema.json", "schema_version": 1, "kind": "chart",
//     "title": {"zh": "…", "en": "…"},                                            (optional)
//     "columns": [{"id": "language", "title": {"zh": "…", "en": "…"}}, …],        1 … 6
//     "items": [{"id": "triton", "column": "language", "name": {…}, "note": {…}}, …],   1 … 24
//     "links": [{"from": "splash", "to": "pallas", "label": {…}}, …] }             (optional, ≤ 24)
// Ids are unique; an item's column and a link's ends must name existing ids. Errors: LoadError
// naming the file, the JSON Pointer path and the reason.
#pragma once

#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "data/json_file.h"
#include "data/load_error.h"

namespace bw::data {

inline constexpr size_t kMaxChartColumns = 6;
inline constexpr size_t kMaxChartItems = 24;
inline constexpr size_t kMaxChartLinks = 24;

struct ChartColumn {
  std::string id;
  LocalText title;
};
struct ChartItem {
  std::string id;
  int column = 0;   // index into columns
  LocalText name, note;
};
struct ChartLink {
  int from = 0, to = 0;   // indices into items
  LocalText label;
};
struct ChartScenario {
  std::string file;
  LocalText title;
  std::vector<ChartColumn> columns;
  std::vector<ChartItem> items;
  std::vector<ChartLink> links;
};

ChartScenario ParseChartScenario(const nlohmann::json& doc, const std::string& file);

}  // namespace bw::data
