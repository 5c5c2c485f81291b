// ScenarioModel for charts; see chart_model.h.
#include "view/chart_model.h"

#include <algorithm>

namespace bw::view {


Scene ChartModel::BuildScene(int, const std::string& lang, const Palette& pal, const SceneFrame&) const {
  constexpr float kW = 56, kH = 22, kTop = 3.2f, kGap = 1.0f, kItemH = 4.0f, kLinkRoom = 4.2f;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.background = pal.background;
  const size_t n_cols = scenario_.columns.size();
  const float col_w = (kW - kGap * static_cast<float>(n_cols - 1)) / static_cast<float>(n_cols);
  std::vector<int> placed(n_cols, 0);
  std::vector<ScenePoint> centre(scenario_.items.size());
  std::vector<float> left(scenario_.items.size()), right(scenario_.items.size());
  const Color fills[] = {pal.panel_hbm, pal.panel_sram, pal.background};
  for (size_t c = 0; c < n_cols; ++c) {
    SceneRect col;
    col.id = "column." + scenario_.columns[c].id;
    col.x = (col_w + kGap) * static_cast<float>(c), col.y = 0, col.w = col_w, col.h = kH;
    col.fill = fills[c % 3];
    col.border = pal.border;
    col.border_em = pal.line_em;
    sc.rects.push_back(col);
    sc.texts.push_back({"column." + scenario_.columns[c].id + ".title", col.x + 0.6f, 0.6f, 1.15f, pal.text,
                        scenario_.columns[c].title.In(lang)});
  }
  for (size_t i = 0; i < scenario_.items.size(); ++i) {
    const auto& it = scenario_.items[i];
    const size_t c = static_cast<size_t>(it.column);
    const float x = (col_w + kGap) * static_cast<float>(c) + 0.6f;
    const float y = kTop + (kItemH + 1.6f) * static_cast<float>(placed[c]++);
    SceneRect r;
    r.id = "item." + it.id;
    r.x = x, r.y = y, r.w = col_w - 0.6f - kLinkRoom, r.h = kItemH;   // room on the right for the links' labels
    r.fill = {255, 255, 255};
    r.border = pal.border;
    r.border_em = pal.line_em * 0.8f;
    r.label = it.name.In(lang);
    r.sublabel = it.note.In(lang);
    sc.rects.push_back(r);
    centre[i] = {x + r.w / 2, y + kItemH / 2};
    left[i] = x;
    right[i] = x + r.w;
  }
  for (size_t k = 0; k < scenario_.links.size(); ++k) {
    const auto& l = scenario_.links[k];
    const size_t a = static_cast<size_t>(l.from), b = static_cast<size_t>(l.to);
    SceneArrow arr;
    arr.id = "link." + scenario_.items[a].id + "." + scenario_.items[b].id;
    arr.kind = ArrowKind::kMerge;
    arr.color = pal.merge_arrow;
    const bool rightwards = centre[b].x > centre[a].x + 0.5f, leftwards = centre[b].x < centre[a].x - 0.5f;
    if (rightwards) arr.points = {{right[a], centre[a].y}, {left[b], centre[b].y}};
    else if (leftwards) arr.points = {{left[a], centre[a].y}, {right[b], centre[b].y}};
    else arr.points = {{centre[a].x, centre[a].y + (centre[b].y > centre[a].y ? kItemH / 2 : -kItemH / 2)},
                       {centre[b].x, centre[b].y + (centre[b].y > centre[a].y ? -kItemH / 2 : kItemH / 2)}};
    arr.label = l.label.In(lang);
    arr.label_at = {std::min(arr.points[0].x, arr.points[1].x) + 0.3f, std::min(arr.points[0].y, arr.points[1].y) - 1.4f};
    sc.arrows.push_back(arr);
  }
  return sc;
}

std::vector<PanelSection> ChartModel::Panels(int, const std::string& lang) const {
  std::vector<PanelSection> out;
  for (size_t c = 0; c < scenario_.columns.size(); ++c) {
    PanelSection s;
    s.title = scenario_.columns[c].title.In(lang);
    for (const auto& it : scenario_.items)
      if (it.column == static_cast<int>(c)) s.rows.push_back({it.name.In(lang), it.note.In(lang)});
    out.push_back(s);
  }
  return out;
}

Quantities ChartModel::QuantitiesAt(int) const {
  Quantities q;
  q["columns"] = std::to_string(scenario_.columns.size());
  q["items"] = std::to_string(scenario_.items.size());
  q["links"] = std::to_string(scenario_.links.size());
  return q;
}

std::vector<std::string> ChartModel::Texts() const {
  std::vector<std::string> t = {scenario_.title.zh, scenario_.title.en, scenario_.file, PositionHelp(), "chart"};
  for (const auto& c : scenario_.columns) t.insert(t.end(), {c.title.zh, c.title.en});
  for (const auto& i : scenario_.items) t.insert(t.end(), {i.name.zh, i.name.en, i.note.zh, i.note.en});
  for (const auto& l : scenario_.links) t.insert(t.end(), {l.label.zh, l.label.en});
  return t;
}

}  // namespace bw::view
