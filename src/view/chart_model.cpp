// ScenarioModel for charts; see chart_model.h.
#include "view/chart_model.h"

#include <algorithm>

namespace bw::view {


Scene ChartModel::BuildScene(int, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  // At the floors (SceneFrame::floors) the same chart in a 40 × 15.6 em frame (every text 1.4 times
  // larger on screen): the column titles and the items' notes wrap onto lines of their own, and the
  // items share the column's height.
  const bool fl = frame.floors;
  // (At the floors the links' labels stand in the gaps between the columns, clear of every border: a
  // walk-through saw GLOSS/g4's "written in" on a column's edge. Off the floors they take room beside
  // the items.)
  const float kW = fl ? 40 : 56, kH = fl ? 15.6f : 22, kGap = fl ? 4.6f : 1.0f, kLinkRoom = fl ? 0.2f : 4.2f;
  const float kItemGap = fl ? 0.8f : 1.6f;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.floors = fl;
  if (fl) sc.text_scale = std::clamp(frame.text_scale, 1.0f, 2.0f);
  sc.background = pal.background;
  const size_t n_cols = scenario_.columns.size();
  const float col_w = (kW - kGap * static_cast<float>(n_cols - 1)) / static_cast<float>(n_cols);
  const float item_w = col_w - 0.6f - kLinkRoom;   // room on the right for the links' labels
  const auto wrapped = [](const std::string& text, float width_em) {
    std::string out;
    for (auto line : WrapEstimated(text, width_em)) {
      while (!line.empty() && line.front() == ' ') line.erase(0, 1);
      out += (out.empty() ? "" : "\n") + line;
    }
    return out;
  };
  // At the floors the chart is laid out for its text as the painter draws it: the scene takes the
  // frame's text scale (the painter enlarges nothing further), and a column's title is a line at the
  // text floor (1.05 em at 1920×1080, where the chart is 33 px per em), wrapped for that size (an
  // em-square is the line over 1.448). (Enlarged 1.6× by the painter, "Programming language /
  // compiler" took three lines and its last sat on the first item's border.)
  const float floor_line = fl ? std::max(1.0f, FloorLinesAt(frame, frame.width_px > 0 ? frame.width_px / kW : 33.0f).text) : 1.0f;
  const float title_emsq = floor_line / 1.448f, title_pitch = std::max(1.25f, floor_line + 0.15f);
  std::vector<std::vector<std::string>> titles(n_cols);
  size_t title_lines = 1;
  std::vector<int> per_col(n_cols, 0);
  for (size_t c = 0; c < n_cols; ++c) {
    const std::string& t = scenario_.columns[c].title.In(lang);
    titles[c] = fl ? WrapEstimated(t, (col_w - 0.8f) / title_emsq) : std::vector<std::string>{t};
    title_lines = std::max(title_lines, titles[c].size());
  }
  for (const auto& it : scenario_.items) ++per_col[static_cast<size_t>(it.column)];
  const float kTop = fl ? 0.5f + title_pitch * static_cast<float>(title_lines) : 3.2f;
  // (At the floors a column of fewer items gives each more height: a long name and its note need it.)
  const auto item_h = [&](size_t c) {
    const int n = std::max(1, per_col[c]);
    return fl ? std::min(9.0f, (kH - kTop - 0.4f - kItemGap * static_cast<float>(n - 1)) / static_cast<float>(n)) : 4.0f;
  };
  std::vector<int> placed(n_cols, 0);
  std::vector<ScenePoint> centre(scenario_.items.size());
  std::vector<float> left(scenario_.items.size()), right(scenario_.items.size()), half_h(scenario_.items.size());
  const Color fills[] = {pal.panel_hbm, pal.panel_sram, pal.background};
  for (size_t c = 0; c < n_cols; ++c) {
    SceneRect col;
    col.id = "column." + scenario_.columns[c].id;
    col.x = (col_w + kGap) * static_cast<float>(c), col.y = 0, col.w = col_w, col.h = kH;
    col.fill = fills[c % 3];
    col.border = pal.border;
    col.border_em = pal.line_em;
    sc.rects.push_back(col);
    for (size_t k = 0; k < titles[c].size(); ++k)
      sc.texts.push_back({"column." + scenario_.columns[c].id + ".title" + (k ? "." + std::to_string(k + 1) : ""), col.x + (fl ? 0.4f : 0.6f),
                          (fl ? 0.3f : 0.6f) + title_pitch * static_cast<float>(k), fl ? 1.0f : 1.15f, pal.text, titles[c][k]});
  }
  for (size_t i = 0; i < scenario_.items.size(); ++i) {
    const auto& it = scenario_.items[i];
    const size_t c = static_cast<size_t>(it.column);
    const float x = (col_w + kGap) * static_cast<float>(c) + (fl ? 0.4f : 0.6f);
    const float kItemH = item_h(c);
    const float y = kTop + (kItemH + kItemGap) * static_cast<float>(placed[c]++);
    SceneRect r;
    r.id = "item." + it.id;
    r.x = x, r.y = y, r.w = item_w, r.h = kItemH;
    r.fill = {255, 255, 255};
    r.border = pal.border;
    r.border_em = pal.line_em * 0.8f;
    if (fl) {   // the name (at 1.15) and the note under it, each on lines as wide as the box
      // (Wrapped for the sizes the painter draws them at: the name 1.15 em, the note at the text floor.)
      r.label = wrapped(it.name.In(lang), (item_w - 0.6f) / std::max(1.15f / 1.448f, title_emsq));
      if (!it.note.In(lang).empty()) r.label += "\n" + wrapped(it.note.In(lang), 0.9f * (item_w - 0.6f) / title_emsq);
    } else {
      r.label = it.name.In(lang);
      r.sublabel = it.note.In(lang);
    }
    sc.rects.push_back(r);
    centre[i] = {x + r.w / 2, y + kItemH / 2};
    left[i] = x;
    right[i] = x + r.w;
    half_h[i] = kItemH / 2;
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
    else arr.points = {{centre[a].x, centre[a].y + (centre[b].y > centre[a].y ? half_h[a] : -half_h[a])},
                       {centre[b].x, centre[b].y + (centre[b].y > centre[a].y ? -half_h[b] : half_h[b])}};
    arr.label = l.label.In(lang);
    if (fl && (rightwards || leftwards)) {
      // In the gap the arrow crosses, just above the arrow where it enters the gap.
      const size_t lc = static_cast<size_t>(std::min(scenario_.items[a].column, scenario_.items[b].column));
      const float gap_x = (col_w + kGap) * static_cast<float>(lc) + col_w;
      const auto& p0 = arr.points[0];
      const auto& p1 = arr.points[1];
      const float t = std::abs(p1.x - p0.x) > 1e-3f ? (gap_x - p0.x) / (p1.x - p0.x) : 0.0f;
      const float y = p0.y + t * (p1.y - p0.y);
      arr.label_at = {gap_x + 0.2f, y - 1.45f};
    } else {
      arr.label_at = {std::min(arr.points[0].x, arr.points[1].x) + 0.3f, std::min(arr.points[0].y, arr.points[1].y) - 1.4f};
    }
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
