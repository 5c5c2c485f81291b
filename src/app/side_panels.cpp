// The diagram, the side-panel sections and the P heatmap; see panels.h.
#include "app/panels.h"
#include "app/diagram_layout.h"
#include "session/shown.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>

#include "view/layout.h"
#include "view/merge_views.h"
#include "view/scenario_model.h"
#include "view/single_query_model.h"

namespace bw::app {

float PanelCtrlUndo(const AppState& s) {
  if (!s.options.projector) return 1.0f;
  // (An export at 2× doubles the font size, not Ctrl +.)
  const float logical = s.options.font_px / std::max(s.ui.export_scale, 0.01f);
  return std::min(1.0f, view::kDefaultFontPx / std::max(logical, 1.0f));
}

Painted DrawDiagram(const AppState& s, const Fonts& fonts, float width, float height, float text_scale,
                    float arrow_progress, float* label_px, const FillPass& fills) {
  if (!s.Current()) return {};
  // Laid out and placed before painting (diagram_layout.h: the geometry test calls the same).
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const DiagramPlan plan = PlanDiagram(s, FontMetrics(fonts), {at.x, at.y, width, height}, text_scale, ImGui::GetIO().DisplaySize.y);
  if (label_px) *label_px = plan.label_px;
  auto painted = PaintScene(ImGui::GetWindowDrawList(), plan.scene, plan.placement, fonts, s.Palette(), arrow_progress, fills);
  ImGui::Dummy(ImVec2(plan.scene.width * plan.placement.input.em, plan.scene.height * plan.placement.input.em));
  return painted;
}

namespace {

// A table row's cells: its name (marked × when wrong) and its value's tab-separated cells, at most
// `columns` in all.
std::vector<std::string> Cells(const view::PanelRow& r, size_t columns) {
  std::vector<std::string> out{MarkedName(MarkOf(r), r.name)};
  for (size_t from = 0; out.size() < columns;) {
    const size_t tab = r.value.find('\t', from);
    out.push_back(r.value.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
    if (tab == std::string::npos) break;
    from = tab + 1;
  }
  return out;
}

// One panel section as a table with its columns; `cells`: each row's Cells.
void DrawTable(const view::PanelSection& sec, const std::vector<std::vector<std::string>>& cells) {
  // Each column's widest text. When they do not all fit on one line, every column but the last keeps
  // its width (its numbers whole) and the last, the words, wraps into what is left.
  std::vector<float> widest(sec.columns.size(), 0.0f);
  for (size_t c = 0; c < sec.columns.size(); ++c) widest[c] = ImGui::CalcTextSize(sec.columns[c].c_str()).x;
  for (const auto& row : cells)
    for (size_t c = 0; c < row.size() && c < widest.size(); ++c) widest[c] = std::max(widest[c], ImGui::CalcTextSize(row[c].c_str()).x);
  float total = 0;
  for (float w : widest) total += w + 2 * ImGui::GetStyle().CellPadding.x + 1;
  const bool wrap_last = widest.size() > 1 && total > ImGui::GetContentRegionAvail().x;
  if (!ImGui::BeginTable("table", static_cast<int>(sec.columns.size()),
                         ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp))
    return;
  for (size_t c = 0; c < sec.columns.size(); ++c) {
    if (wrap_last && c + 1 < sec.columns.size()) ImGui::TableSetupColumn(sec.columns[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widest[c]);
    else ImGui::TableSetupColumn(sec.columns[c].c_str(), wrap_last ? ImGuiTableColumnFlags_WidthStretch : 0);
  }
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < sec.rows.size(); ++i) {
    ImGui::TableNextRow();
    const RowMark mark = MarkOf(sec.rows[i]);
    if (mark != RowMark::kNone) ImGui::PushStyleColor(ImGuiCol_Text, mark == RowMark::kWrong ? kWrongColor : kNoticeColor);
    for (size_t c = 0; c < cells[i].size(); ++c) {
      ImGui::TableSetColumnIndex(static_cast<int>(c));
      Wrapped(cells[i][c]);
    }
    if (mark != RowMark::kNone) ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

}  // namespace

float PanelsLeastWidth(const AppState& s, const Fonts& fonts, float floor_em) {
  ImFont* f = fonts.text;
  if (!f) return 0;
  const float px = std::min(fonts.text_px, floor_em / std::max(1e-3f, fonts.em_ratio));  // the text font at the floor
  const auto width = [&](const std::string& t) { return f->CalcTextSizeA(px, 1e9f, 0, t.c_str()).x; };
  const ImGuiStyle& style = ImGui::GetStyle();
  float least = 0;
  for (const auto& sec : PanelsNow(s)) {
    if (sec.columns.empty()) continue;
    std::vector<float> widest(sec.columns.size(), 0.0f);
    for (size_t c = 0; c < sec.columns.size(); ++c) widest[c] = width(sec.columns[c]);
    for (const auto& r : sec.rows) {
      const auto cells = Cells(r, sec.columns.size());
      for (size_t c = 0; c < cells.size(); ++c) widest[c] = std::max(widest[c], width(cells[c]));
    }
    float w = 2 * style.WindowPadding.x + style.ScrollbarSize + 2;
    for (float x : widest) w += x + 2 * style.CellPadding.x + 1;
    least = std::max(least, w);
  }
  return least;
}

// A row whose value is a number the step quotes: its value before " ≈" (as "1/3" of "1/3 ≈ 0.3333"),
// short, quoted as it stands (a row that merely holds a quoted number stays at the text size: with
// every such row large, N23's panel no longer fit its key rows at 36 px).
static bool QuotedValue(const std::string& said, const std::string& value) {
  std::string lead = value.substr(0, std::min(value.find(" \u2248"), value.find('\t')));
  while (!lead.empty() && lead.back() == ' ') lead.pop_back();
  const auto digits = std::count_if(lead.begin(), lead.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits >= 2 && lead.size() <= 24 && said.find(lead) != std::string::npos;   // the value itself is quoted
}

void DrawPanels(const AppState& s, const Fonts& fonts) {
  int n = 0;
  // Projector: the one panel the step is about, its numbers in the large font (≥ 28 px at 1080p).
  const bool big = s.options.projector;
  // A row whose number the step quotes is one it is about (issue 29: α = 1/3 at N51/t2 was drawn at
  // the text size).
  const std::string said = big ? StepSaysNow(s) : std::string();
  const auto sections = PanelsNow(s);
  if (sections.empty() && s.PredictPending()) {
    // Every section would answer the open question (the step conceals them all): say why the panel
    // is empty rather than leave a blank box on the projector (a helper saw one at RC-T3/b0).
    if (big) ImGui::PushFont(fonts.text);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    Wrapped(T(s, view::Str::hidden_answer));
    ImGui::PopStyleColor();
    if (big) ImGui::PopFont();
    return;
  }
  for (const auto& sec : sections) {
    ImGui::PushID(n++);
    Heading(fonts, sec.title);
    if (big) ImGui::PushFont(fonts.text);
    if (sec.columns.empty() && big) {
      ImGui::Separator();
      for (const auto& r : sec.rows) BigRow(fonts, r.name, r.value, MarkOf(r), r.key || QuotedValue(said, r.value));
    } else if (sec.columns.empty()) {
      if (ImGui::BeginTable("rows", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        for (const auto& r : sec.rows) Row(r.name.c_str(), r.value, MarkOf(r), r.bar);
        ImGui::EndTable();
      }
    } else {
      // A table wider than the panel would wrap or clip its numbers mid-number ("1.414" read "1.41",
      // "0.7071" broke into "0.70 / 71" after Ctrl +, a helper): its text is made smaller until every
      // cell fits whole, down to 0.6 of the panel's size.
      std::vector<float> widest(sec.columns.size(), 0.0f);
      for (size_t c = 0; c < sec.columns.size(); ++c) widest[c] = ImGui::CalcTextSize(sec.columns[c].c_str()).x;
      std::vector<std::vector<std::string>> cells;
      for (const auto& r : sec.rows) {
        cells.push_back(Cells(r, sec.columns.size()));
        for (size_t c = 0; c < cells.back().size(); ++c)
          widest[c] = std::max(widest[c], ImGui::CalcTextSize(cells.back()[c].c_str()).x);
      }
      float text = 0;  // the cells' text; the padding does not shrink with the font scale
      for (float w : widest) text += w;
      const float padding = static_cast<float>(widest.size()) * (2 * ImGui::GetStyle().CellPadding.x + 1);
      const float room = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize - padding;
      // … but never below the legible floor (24 px em on a projector, 14 on a laptop: issue 29);
      // beyond it the cells wrap, between words and never inside a number (WrapLines).
      // (In proportion to the window's height: a 4K projector's table was held to 1080p's 24 px.)
      const float display_h = ImGui::GetIO().DisplaySize.y;
      const float floor_em = big ? view::ProjectorFloors(display_h).text : view::DeskFloors(display_h).text;
      float min_fit = std::clamp(floor_em / std::max(1.0f, fonts.Em(ImGui::GetFontSize())), 0.6f, 1.0f);
      // A projector's table whose numbers fit whole at the panel's size keeps that size and wraps its
      // words instead (N49/m1's counters — the 64 the step is about — were drawn at 24 px em so that
      // the formula column fit on one line, with half the panel empty below: issue 29's second walk).
      if (big) {
        float numbers = 0;   // every column but the last (the words) at its widest
        for (size_t c = 0; c + 1 < widest.size(); ++c) numbers += widest[c];
        const float words = widest.empty() ? 0.0f : ImGui::CalcTextSize("0000000000").x;   // the last column's least
        if (numbers + words <= room) min_fit = 1.0f;
      }
      const float fit = text > room && text > 0 ? std::clamp(room / text, min_fit, 1.0f) : 1.0f;
      const float panel_scale = big ? s.ui.side_fit * PanelCtrlUndo(s) : 1.0f;  // the projector panel's own fit (DrawMainWindow)
      ImGui::SetWindowFontScale(panel_scale * fit);
      DrawTable(sec, cells);
      ImGui::SetWindowFontScale(panel_scale);
    }
    if (big) ImGui::PopFont();
    ImGui::Spacing();
    ImGui::PopID();
  }
}

namespace {

// A single query's P is one row: instead of the log-scale heatmap, the balance (linear weights, the
// block outputs with their weights, the right mean and the wrong one; view/merge_views.h).
void DrawBalance(const AppState& s, const Fonts& fonts, const view::SingleQueryModel& m, const FillPass& fills) {
  // (A projector's heading in the text font: 24 px em and more, as the balance's texts; at the default
  // size whatever Ctrl + says, PanelCtrlUndo — a heading grown to two lines left the means 24 px.)
  if (s.options.projector) ImGui::PushFont(fonts.text), ImGui::SetWindowFontScale(PanelCtrlUndo(s));
  Said(T(s, view::Str::balance_heading));
  if (s.options.projector) ImGui::SetWindowFontScale(1.0f), ImGui::PopFont();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  float em = 0;
  const float width =
      view::BalanceWidthFor(avail.x - ImGui::GetStyle().ScrollbarSize, std::max(avail.y, 1.0f), s.ui.text_px * PanelCtrlUndo(s), &em, /*floors=*/true);
  view::Scene scene = view::BuildBalanceScene(m.run(), s.ui.event, s.options.lang, s.Palette(), width, /*floors=*/true);
  DropAnswers(scene, s);
  // Within its box both ways: the box has no scrollbar (its legend used to be cut at the foot).
  em = std::min({em, (avail.x - ImGui::GetStyle().ScrollbarSize) / scene.width, std::max(1.0f, avail.y) / scene.height});
  SaidLabels(
      PaintScene(ImGui::GetWindowDrawList(), scene, ImGui::GetCursorScreenPos(), em, fonts, s.Palette(), 1.0f, {}, 1.0f,
                 s.options.projector ? view::ProjectorFloors(ImGui::GetIO().DisplaySize.y) : view::DeskFloors(ImGui::GetIO().DisplaySize.y), fills)
          .labels);
  ImGui::Dummy(ImVec2(scene.width * em, scene.height * em));
}

}  // namespace

void DrawHeatmap(const AppState& s, const Fonts& fonts, HeatmapRenderer* renderer, const FillPass& fills) {
  const auto* cur = s.Current();
  if (!cur) return;
  if (const auto* sq = dynamic_cast<const view::SingleQueryModel*>(cur); sq && sq->run().problem.values.cols() == 1)
    return DrawBalance(s, fonts, *sq, fills);
  if (!renderer) return;
  const auto h = cur->HeatmapAt(s.ui.event);
  if (!h) return;
  // A projector's heatmap caption and legend at the text floor at least (they were 23 px em at 1080p).
  struct FontScale {
    explicit FontScale(float k) { ImGui::SetWindowFontScale(k); }
    ~FontScale() { ImGui::SetWindowFontScale(1.0f); }
  } scale(s.options.projector ? std::max(PanelCtrlUndo(s), view::ProjectorFloors(ImGui::GetIO().DisplaySize.y).text / fonts.Em(ImGui::GetFontSize()) * 1.01f)
                              : 1.0f);
  Said(T(s, view::Str::heatmap) + "  " + h->title +
       (h->not_finite ? "  \u00b7  NaN / \u221e: " + T(s, view::Str::num_title) : ""));
  if (ConcealedNow(s, view::kConcealHeatmap)) {  // the mask in it would answer the open question (MASK/k1)
    Wrapped(T(s, view::Str::hidden_answer));
    return;
  }
  if (h->not_computed_yet) {
    Wrapped(T(s, h->computing ? view::Str::heatmap_computing : view::Str::heatmap_not_yet));
    return;
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The legend's lines as they will wrap: the box has no scrollbar (a projector's "8 × 8" was cut).
  // (The red box is named only where one is drawn: N49/m2 and BWD's legend named a box that was not there.)
  const std::string legend = T(s, view::Str::heatmap_legend) + (h->r1 > h->r0 ? " " + T(s, view::Str::heatmap_legend_tile) : "") + "  " +
                             std::to_string(h->rows) + " \u00d7 " + std::to_string(h->cols);
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * (static_cast<float>(WrapLines(legend, avail.x, true).size()) + 0.2f);
  // Cells keep their aspect: a single row is a strip, a square matrix a square.
  const float aspect = static_cast<float>(h->rows) / static_cast<float>(h->cols);
  float width = avail.x;
  float height = std::clamp(width * aspect, ImGui::GetFontSize() * 1.5f, width);
  if (height > avail.y - legend_h && avail.y - legend_h > ImGui::GetFontSize() * 3) {
    height = avail.y - legend_h;
    width = std::min(avail.x, height / std::max(aspect, 1e-6f));
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1{p0.x + width, p0.y + height};
  auto* dl = ImGui::GetWindowDrawList();
  if (!renderer->Draw(dl, *h, p0, p1, 6.0f)) {
    Wrapped(T(s, view::Str::heatmap_too_big));
    return;
  }
  if (h->r1 > h->r0) {  // the current tile, outlined
    const float cw = width / static_cast<float>(h->cols), ch = height / static_cast<float>(h->rows);
    dl->AddRect({p0.x + cw * static_cast<float>(h->c0), p0.y + ch * static_cast<float>(h->r0)},
                {p0.x + cw * static_cast<float>(h->c1), p0.y + ch * static_cast<float>(h->r1)},
                IM_COL32(255, 64, 32, 255), 0, 0, std::max(2.0f, ImGui::GetFontSize() * 0.12f));
  }
  dl->AddRect(p0, p1, IM_COL32(60, 60, 60, 255));
  ImGui::Dummy(ImVec2(width, height));
  Wrapped(legend, TextRole::kText, true);  // ("8 × 8" whole: WrapLines)
}

}  // namespace bw::app
