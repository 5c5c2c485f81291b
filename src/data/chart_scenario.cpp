// Scenario loader, kind "chart"; see chart_scenario.h for the format.
#include "data/chart_scenario.h"

#include <nlohmann/json.hpp>

namespace bw::data {

namespace {

std::string Id(const JsonReader& r, const nlohmann::json& obj, const std::string& path) {
  const std::string id = r.String(r.Require(obj, path, "id"), path + "/id");
  if (id.empty() || id.size() > 64) r.Fail(path + "/id", "an id is 1 to 64 characters");
  return id;
}

}  // namespace

ChartScenario ParseChartScenario(const nlohmann::json& doc, const std::string& file) {
  const JsonReader r(file);
  ChartScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "chart", 1, {"columns", "items", "links"});

  const auto& cols = r.Require(doc, "", "columns");
  r.ExpectArray(cols, "/columns", 1);
  if (cols.size() > kMaxChartColumns) r.Fail("/columns", std::to_string(cols.size()) + " columns; the limit is " + std::to_string(kMaxChartColumns));
  for (size_t c = 0; c < cols.size(); ++c) {
    const std::string p = JsonPath("/columns", c);
    r.ExpectObject(cols[c], p);
    r.Fields(cols[c], p, {"id", "title"});
    ChartColumn col{Id(r, cols[c], p), r.Text(r.Require(cols[c], p, "title"), p + "/title")};
    for (const auto& o : sc.columns)
      if (o.id == col.id) r.Fail(p + "/id", "id \"" + col.id + "\" is used twice");
    sc.columns.push_back(std::move(col));
  }
  const auto column_index = [&](const std::string& id, const std::string& p) {
    for (size_t c = 0; c < sc.columns.size(); ++c)
      if (sc.columns[c].id == id) return static_cast<int>(c);
    r.Fail(p, "no column with id \"" + id + "\"");
  };

  const auto& items = r.Require(doc, "", "items");
  r.ExpectArray(items, "/items", 1);
  if (items.size() > kMaxChartItems) r.Fail("/items", std::to_string(items.size()) + " items; the limit is " + std::to_string(kMaxChartItems));
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string p = JsonPath("/items", i);
    r.ExpectObject(items[i], p);
    r.Fields(items[i], p, {"id", "column", "name", "note"});
    ChartItem it;
    it.id = Id(r, items[i], p);
    for (const auto& o : sc.items)
      if (o.id == it.id) r.Fail(p + "/id", "id \"" + it.id + "\" is used twice");
    it.column = column_index(r.String(r.Require(items[i], p, "column"), p + "/column"), p + "/column");
    it.name = r.Text(r.Require(items[i], p, "name"), p + "/name");
    it.note = r.Text(r.Require(items[i], p, "note"), p + "/note");
    sc.items.push_back(std::move(it));
  }
  const auto item_index = [&](const std::string& id, const std::string& p) {
    for (size_t i = 0; i < sc.items.size(); ++i)
      if (sc.items[i].id == id) return static_cast<int>(i);
    r.Fail(p, "no item with id \"" + id + "\"");
  };

  if (doc.contains("links")) {
    const auto& links = doc["links"];
    r.ExpectArray(links, "/links");
    if (links.size() > kMaxChartLinks) r.Fail("/links", std::to_string(links.size()) + " links; the limit is " + std::to_string(kMaxChartLinks));
    for (size_t k = 0; k < links.size(); ++k) {
      const std::string p = JsonPath("/links", k);
      r.ExpectObject(links[k], p);
      r.Fields(links[k], p, {"from", "to", "label"});
      ChartLink l;
      l.from = item_index(r.String(r.Require(links[k], p, "from"), p + "/from"), p + "/from");
      l.to = item_index(r.String(r.Require(links[k], p, "to"), p + "/to"), p + "/to");
      if (l.from == l.to) r.Fail(p + "/to", "a link joins two different items");
      l.label = r.Text(r.Require(links[k], p, "label"), p + "/label");
      sc.links.push_back(std::move(l));
    }
  }
  return sc;
}

}  // namespace bw::data
