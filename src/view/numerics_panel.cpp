// The numerics report as panel rows; see numerics_panel.h.
#include "view/numerics_panel.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "view/format.h"
#include "view/scene.h"

namespace bw::view {

using engine::NumericsKind;

EventPathFn InputPaths(const data::AttentionScenario& sc) {
  const bool logits = sc.from_logits, scale = sc.problem.scale.has_value();
  return [logits, scale](const engine::NumericsEvent& ev) -> std::string {
    if (ev.quantity == "scale") return scale ? "/scale" : "";
    if (ev.row < 0 || ev.col < 0) return "";
    const std::string rc = "/" + std::to_string(ev.row) + "/" + std::to_string(ev.col);
    if (ev.quantity == "Q") return (logits ? "/logits" : "/Q") + rc;
    if (ev.quantity == "K") return logits ? "" : "/K" + rc;
    if (ev.quantity == "V") return "/V" + rc;
    return "";
  };
}

EventPathFn InputPaths(const data::SingleQueryScenario& sc) {
  const bool weights = sc.problem.score_kind == engine::ScoreKind::kWeights;
  return [weights](const engine::NumericsEvent& ev) -> std::string {
    const bool pos = ev.row < 0 && ev.col >= 0 && (ev.quantity == "e^s" || ev.quantity == "weights");
    return pos ? (weights ? "/weights/" : "/logits/") + std::to_string(ev.col) : "";
  };
}

Str NumericsName(NumericsKind k) {
  switch (k) {
    case NumericsKind::kExpOverflow: return Str::num_exp_overflow;
    case NumericsKind::kWeightsUnderflow: return Str::num_weights_underflow;
    case NumericsKind::kInfiniteScore: return Str::num_infinite_score;
    case NumericsKind::kNaN: return Str::num_nan;
    case NumericsKind::kOutOfRange: return Str::num_out_of_range;
    case NumericsKind::kAccumulatorOverflow: return Str::num_accumulator_overflow;
    case NumericsKind::kProductOverflow: return Str::num_product_overflow;
  }
  return Str::num_nan;
}

Str NumericsHint(NumericsKind k) {
  switch (k) {
    case NumericsKind::kExpOverflow: return Str::num_hint_exp_overflow;
    case NumericsKind::kWeightsUnderflow: return Str::num_hint_weights_underflow;
    case NumericsKind::kInfiniteScore: return Str::num_hint_infinite_score;
    case NumericsKind::kNaN: return Str::num_hint_nan;
    case NumericsKind::kOutOfRange: return Str::num_hint_out_of_range;
    case NumericsKind::kAccumulatorOverflow: return Str::num_hint_accumulator_overflow;
    case NumericsKind::kProductOverflow: return Str::num_hint_product_overflow;
  }
  return Str::num_hint_nan;
}

const std::string& NumericsKindName(NumericsKind k, const std::string& lang) { return UiText(NumericsName(k), lang); }

std::string NumericsWhere(const engine::NumericsEvent& e, const std::string& lang, const EventPathFn& path) {
  const auto n = [](std::int64_t x) { return std::to_string(x + 1); };
  std::string what = e.quantity + " = " + FormatDouble(e.value);
  if (e.kind == NumericsKind::kWeightsUnderflow) what = e.quantity + " = 0";
  if (e.kind == NumericsKind::kExpOverflow) what = "e^s = +\u221e (s = " + FormatDouble(e.value) + ")";
  std::vector<std::string> at;
  if (e.row >= 0) at.push_back(UiFormat(Str::num_at_row, lang, {n(e.row)}));
  if (e.col >= 0) {
    const bool key = e.quantity == "S";
    const bool pos = e.row < 0 && (e.quantity == "e^s" || e.quantity == "weights" || e.quantity == "w\u00b7v");
    at.push_back(UiFormat(pos ? Str::num_at_position : key ? Str::num_at_key : Str::num_at_column, lang, {n(e.col)}));
  }
  std::string s = what;
  if (!at.empty()) {
    s += " \u00b7 ";
    for (size_t k = 0; k < at.size(); ++k) s += (k ? UiText(Str::list_sep, lang) : "") + at[k];
  }
  if (e.i >= 0 && e.j >= 0) s += " \u00b7 " + UiFormat(Str::num_at_tile, lang, {n(e.i), n(e.j)});
  else if (e.j >= 0) s += " \u00b7 " + UiFormat(Str::num_at_block, lang, {n(e.j)});
  if (path) {
    const std::string p = path(e);
    if (!p.empty()) s += " \u00b7 " + p;
  }
  if (e.kind == NumericsKind::kOutOfRange)
    s += " \u00b7 " + UiFormat(Str::num_becomes, lang, {e.precision, std::abs(e.value) > 1 ? (e.value > 0 ? "+\u221e" : "\u2212\u221e") : "0"});
  return s;
}

std::optional<PanelSection> NumericsSection(const engine::NumericsReport& rep, const std::string& lang,
                                            const EventPathFn& path) {
  if (rep.empty()) return std::nullopt;
  PanelSection sec;
  sec.title = UiText(Str::num_title, lang) + " (" + std::to_string(rep.size()) + ")";
  for (const auto& e : rep.events) sec.rows.push_back({NumericsKindName(e.kind, lang), NumericsWhere(e, lang, path), true});
  if (rep.dropped > 0) sec.rows.push_back({"\u2026", std::to_string(rep.dropped) + " " + UiText(Str::num_more, lang), true});
  for (NumericsKind k : engine::kAllNumericsKinds)
    if (rep.Count(k) > 0)
      sec.rows.push_back({UiText(Str::note, lang), UiText(NumericsHint(k), lang), false});
  return sec;
}

void AddNumericsSection(std::vector<PanelSection>& sections, const engine::NumericsReport& rep, const std::string& lang,
                        const EventPathFn& path) {
  auto sec = NumericsSection(rep, lang, path);
  if (!sec) return;
  sections.insert(sections.begin() + (sections.empty() ? 0 : 1), std::move(*sec));
}

std::string CompareCell(const engine::CompareReport& rep) {
  if (rep.shape_mismatch) return "shape \u2260";
  const std::int64_t nan = std::max(rep.nan_actual, rep.nan_expected);
  if (nan > 0) return "NaN \u00d7" + std::to_string(nan);
  if (rep.nonfinite_mismatches > 0) return "\u00b1\u221e \u00d7" + std::to_string(rep.nonfinite_mismatches);
  return FormatDouble(rep.max_abs_error);
}

bool ShowsNaN(const std::string& text) {
  const auto low = [&](size_t k) { return static_cast<char>(std::tolower(static_cast<unsigned char>(text[k]))); };
  const auto letter = [&](size_t k) { return std::isalpha(static_cast<unsigned char>(text[k])) != 0; };
  for (size_t k = 0; k + 3 <= text.size(); ++k)
    if (low(k) == 'n' && low(k + 1) == 'a' && low(k + 2) == 'n' && (k == 0 || !letter(k - 1)) &&
        (k + 3 == text.size() || !letter(k + 3)))
      return true;  // a word "nan", any case: not "finance"
  return false;
}

std::vector<std::string> UnexplainedNaNs(const ScenarioModel& m, int stride) {
  std::vector<std::string> found;
  const auto* rep = m.Numerics();
  if (rep && !rep->empty()) return found;  // the report names the cause beside the numbers
  const int n = m.EventCount();
  const auto look = [&](int e) {
    for (const auto& [k, v] : m.QuantitiesAt(e))
      if (ShowsNaN(v)) found.push_back("event " + std::to_string(e + 1) + " {" + k + "} = " + v);
    for (const char* lang : {"zh", "en"})
      for (const auto& sec : m.Panels(e, lang))
        for (const auto& row : sec.rows)
          if (!row.cause_named && ShowsNaN(row.value)) found.push_back("event " + std::to_string(e + 1) + " " + row.name + " = " + row.value);
  };
  for (int e = 0; e < n; e += std::max(1, stride)) look(e);
  if (n > 0 && (n - 1) % std::max(1, stride) != 0) look(n - 1);
  return found;
}

}  // namespace bw::view
