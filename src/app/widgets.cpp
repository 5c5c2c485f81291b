// Shared panel helpers; see widgets.h.
#include "app/widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>

#include "view/cjk.h"
#include "view/lesson_text.h"
#include "view/scenario_model.h"

namespace bw::app {

// Dear ImGui 1.86 wraps only at spaces and ASCII punctuation, so Chinese runs break mid-number
// ("22." / "86"). This wraps between any two CJK characters, never inside a Latin word or number,
// and never starts a line with closing punctuation.
namespace {

using view::IsCjk;  // the one rule (view/cjk.h)
bool NoLineStart(unsigned c) {
  for (unsigned p :
       {0xFF0Cu, 0x3002u, 0xFF1Bu, 0xFF1Au, 0x3001u, 0xFF09u, 0x300Fu, 0x300Du, 0x3011u, 0xFF01u, 0xFF1Fu, 0x201Du})
    if (c == p) return true;
  return false;
}

}  // namespace

namespace {

struct Log {
  std::vector<PaintedText>* out = nullptr;
  float em_ratio = 1.0f / 1.448f;
};
Log g_log;  // the open TextLog's sink (one frame at a time, on the UI thread)

// The child window the cursor is in: ImGui 1.86 names a child "Parent/name_XXXXXXXX".
std::string Region() {
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  std::string name = w && w->Name ? w->Name : "";
  if (const size_t slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (const size_t us = name.rfind('_');
      us != std::string::npos && name.find('/') == std::string::npos && us + 9 == name.size())
    name = name.substr(0, us);
  return name == "Blockwise" ? "top" : name;
}

}  // namespace

TextLog::TextLog(std::vector<PaintedText>* out, float em_ratio) { g_log = {out, em_ratio}; }
TextLog::~TextLog() { g_log = {}; }

void SaidItem(const std::string& line, TextRole role) {
  if (!g_log.out || line.empty()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const float px = ImGui::GetFontSize();
  g_log.out->push_back({Region(), line, a.x, a.y, b.x, b.y, px, px * g_log.em_ratio, role});
}

void SaidLabels(const std::vector<PaintedLabel>& labels) {
  if (!g_log.out) return;
  const std::string region = Region();
  for (const auto& l : labels) g_log.out->push_back({region, l.text, l.x0, l.y0, l.x1, l.y1, l.px, l.em, TextRole::kText});
}

TimelineLabelPlace PlaceTimelineLabel(float x0, float x1, float g0, float g1, float w, float pad) {
  const float centred = (x0 + x1 - w) * 0.5f;
  if (centred + w + pad <= g0 || centred - pad >= g1) return {centred, x1 - x0};
  const float left = g0 - x0 - 2 * pad, right = x1 - g1 - 2 * pad;
  if (left >= right) return {left >= w ? x0 + pad + (left - w) * 0.5f : x0 + pad, std::max(0.0f, left)};
  return {right >= w ? g1 + pad + (right - w) * 0.5f : g1 + pad, std::max(0.0f, right)};
}

std::pair<float, float> SliderIntGrab(float x0, float x1, int v, int n, float grab_min) {
  const float pad = 2.0f, size = (x1 - x0) - 2 * pad;
  const float grab = std::min(size, std::max(n > 0 ? size / static_cast<float>(n) : size, grab_min));
  const float t = n > 1 ? static_cast<float>(v) / static_cast<float>(n - 1) : 0.0f;
  const float centre = x0 + pad + grab * 0.5f + (size - grab) * t;
  return {centre - grab * 0.5f, centre + grab * 0.5f};
}

void Said(const std::string& line, TextRole role) {
  ImGui::TextUnformatted(line.c_str());
  SaidItem(line, role);
}

void Wrapped(const std::string& text, TextRole role, bool keep_formulas) {
  for (const auto& line : WrapLines(text, ImGui::GetContentRegionAvail().x, keep_formulas)) Said(line, role);
}

std::vector<std::string> WrapLines(const std::string& text, float avail, bool keep_formulas) {
  std::vector<std::string> lines;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float width = std::max(size * 2, avail);  // a narrow table column wraps, never spills into the next
  const char* s = text.c_str();
  const char* end = s + text.size();
  while (s < end) {
    const char* line = s;
    const char* brk = nullptr;  // last place a line may end (exclusive)
    const char* inside = nullptr;  // last space inside a formula (view::MayBreakAtSpace), if nothing else
    float w = 0;
    unsigned prev = 0;
    const char* p = s;
    while (p < end) {
      unsigned c = 0;
      const int len = ImTextCharFromUtf8(&c, p, end);
      if (c == '\n') {
        brk = p;
        break;
      }
      if (p > line && c == ' ') (!keep_formulas || view::MayBreakAtSpace(text, static_cast<size_t>(p - text.c_str())) ? brk : inside) = p;
      else if (p > line && (IsCjk(c) || IsCjk(prev)) && !NoLineStart(c)) brk = p;
      w += font->CalcTextSizeA(size, 1e9f, 0, p, p + len).x;
      if (w > width && p > line) {
        if (!brk || brk == line) brk = inside ? inside : p;  // a formula or a word longer than the line
        break;
      }
      prev = c;
      p += len;
    }
    if (p >= end) brk = end;
    lines.emplace_back(line, brk);
    s = brk;
    while (s < end && (*s == ' ' || *s == '\n')) ++s;
  }
  return lines;
}

// `text` cut at a character boundary, with "…", to fit `max_w` pixels in the current font: a title of
// a megabyte (or of 49,000 characters) pushed the status line and its notices off the bar (issue 31).
bool AnswerFieldActive(const AppState& s) {
  return s.ui.answer_field != 0 && ImGui::GetCurrentContext() && ImGui::GetActiveID() == s.ui.answer_field;
}

std::string ElideToWidth(const std::string& text, float max_w) {
  if (ImGui::CalcTextSize(text.c_str()).x <= max_w) return text;
  std::vector<size_t> ends;  // byte offsets after each of the first 400 characters
  for (size_t i = 0; i < text.size() && ends.size() < 400;) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    i += c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : 4;
    ends.push_back(std::min(i, text.size()));
  }
  size_t lo = 0, hi = ends.size();  // the longest prefix of `lo` characters that fits
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (ImGui::CalcTextSize((text.substr(0, ends[mid - 1]) + "\u2026").c_str()).x <= max_w) lo = mid;
    else hi = mid - 1;
  }
  return (lo ? text.substr(0, ends[lo - 1]) : std::string()) + "\u2026";
}


void Heading(const Fonts& f, const std::string& text) {
  ImGui::PushFont(f.large);
  Wrapped(text);
  ImGui::PopFont();
}

RowMark MarkOf(const view::PanelRow& r) { return r.warning ? RowMark::kWrong : r.notice ? RowMark::kNotice : RowMark::kNone; }

std::string MarkedName(RowMark mark, const std::string& name) {
  return mark == RowMark::kWrong ? "\u00d7 " + name : mark == RowMark::kNotice ? "! " + name : name;
}

void Row(const char* name, const std::string& value, RowMark mark, float bar) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  // A wrong value carries its own mark (×) and hue — never red, which means "written to HBM"; a
  // condition named (not a mistake) its own (!, brown).
  const bool emphasise = mark != RowMark::kNone;
  if (emphasise) ImGui::PushStyleColor(ImGuiCol_Text, mark == RowMark::kWrong ? kWrongColor : kNoticeColor);
  Wrapped(MarkedName(mark, name));
  ImGui::TableSetColumnIndex(1);
  if (bar >= 0) {  // the number on a bar of its size: comparisons read at a glance from the back
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, IM_COL32(30, 101, 216, 150));
    // ImGui right-aligns a bar's text and cuts what overflows on the left: "320 elements, …" read
    // "0 elements, …" in a narrow column (a helper). Too wide for the bar: the text wrapped above a
    // thin bar.
    if (ImGui::CalcTextSize(value.c_str()).x + 2 * ImGui::GetStyle().ItemInnerSpacing.x <=
        ImGui::GetContentRegionAvail().x) {
      ImGui::ProgressBar(bar, ImVec2(-1, 0), value.c_str());
      SaidItem(value, TextRole::kValue);
    } else {
      Wrapped(value, TextRole::kValue);
      ImGui::ProgressBar(bar, ImVec2(-1, std::max(3.0f, 0.3f * ImGui::GetFontSize())), "");
    }
    ImGui::PopStyleColor();
  } else {
    Wrapped(value, TextRole::kValue);
  }
  if (emphasise) ImGui::PopStyleColor();
}

void BigRow(const Fonts& f, const std::string& name, const std::string& value, RowMark mark, bool key) {
  const bool emphasise = mark != RowMark::kNone;
  if (emphasise) ImGui::PushStyleColor(ImGuiCol_Text, mark == RowMark::kWrong ? kWrongColor : kNoticeColor);
  const std::string shown = MarkedName(mark, name);
  ImFont* value_font = key ? f.large : f.text;
  const TextRole role = key ? TextRole::kValue : TextRole::kText;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x * 2;
  ImGui::PushFont(f.text);
  const float name_w = ImGui::CalcTextSize(shown.c_str()).x;
  ImGui::PopFont();
  ImGui::PushFont(value_font);
  const float value_w = ImGui::CalcTextSize(value.c_str()).x;
  const float value_h = ImGui::GetTextLineHeight();
  ImGui::PopFont();
  if (name_w + gap + value_w <= avail) {
    // One line: the name in the text font on the value's baseline, the value at the right edge.
    const ImVec2 at = ImGui::GetCursorPos();
    ImGui::PushFont(f.text);
    ImGui::SetCursorPosY(at.y + (value_h - ImGui::GetTextLineHeight()) * 0.8f);
    Said(shown);
    ImGui::PopFont();
    ImGui::SetCursorPos(ImVec2(at.x + avail - value_w, at.y));
    ImGui::PushFont(value_font);
    Said(value, role);
    ImGui::PopFont();
  } else {
    ImGui::PushFont(f.text);
    Wrapped(shown);
    ImGui::PopFont();
    ImGui::PushFont(value_font);
    ImGui::Indent(ImGui::GetFontSize() * 0.5f);
    Wrapped(value, role);
    ImGui::Unindent(ImGui::GetFontSize() * 0.5f);
    ImGui::PopFont();
  }
  if (emphasise) ImGui::PopStyleColor();
  ImGui::Separator();
}

}  // namespace bw::app
