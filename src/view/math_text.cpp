// See math_text.h.
#include "view/math_text.h"

#include "view/format.h"
#include "view/scene.h"

namespace bw::view {

namespace {

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

}  // namespace

std::string MathText(const std::string& expr) {
  // ceil(…) stays spelled out: Noto Sans CJK has no ⌈ ⌉ (U+2308, U+2309), and a formula must not
  // show empty boxes.
  std::string s = expr;
  ReplaceAll(s, "<=", "\u2264");
  ReplaceAll(s, ">=", "\u2265");
  ReplaceAll(s, "*", "\u00b7");
  ReplaceAll(s, " x ", " \u00d7 ");
  ReplaceAll(s, "sum_", "\u03a3_");
  return s;
}

std::vector<std::string> DerivationLines(const engine::TileDerivation& d, const std::string& lang) {
  const auto s = [](std::int64_t v) { return FormatInt(v); };
  const std::int64_t q = d.tiles.B_c;
  return {
      UiFormat(Str::deriv_sram, lang, {s(d.M), s(d.d)}),
      UiText(Str::deriv_fit, lang),
      "B_c = ceil(M / 4d) = ceil(" + s(d.M) + " / " + s(4 * d.d) + ") = " + s(q),
      "B_r = min(ceil(M / 4d), d) = min(" + s(q) + ", " + s(d.d) + ") = " + s(d.tiles.B_r) + UiText(Str::deriv_br_note, lang),
  };
}

std::string CountFormula(bool read, const std::string& expr, std::int64_t elements, const std::string& lang) {
  const Str s = elements == 1 ? (read ? Str::count_reads_one : Str::count_writes_one) : (read ? Str::count_reads : Str::count_writes);
  return UiFormat(s, lang, {MathText(expr), FormatInt(elements)});
}

// The engine's ids as table entries (a switch: a new enumerator without its string is a warning).
std::string AlgorithmName(engine::Algorithm a, const std::string& lang) {
  switch (a) {
    case engine::Algorithm::kReference: return UiText(Str::algo_reference, lang);
    case engine::Algorithm::kFlash2: return UiText(Str::algo_flash2, lang);
    case engine::Algorithm::kFlash1: return UiText(Str::algo_flash1, lang);
    case engine::Algorithm::kBackwardRecompute: return UiText(Str::algo_backward_recompute, lang);
    case engine::Algorithm::kBackwardReference: return UiText(Str::algo_backward_reference, lang);
  }
  return engine::ToString(a);
}
std::string MaskName(engine::MaskKind k, const std::string& lang) {
  switch (k) {
    case engine::MaskKind::kNone: return UiText(Str::maskkind_none, lang);
    case engine::MaskKind::kCausal: return UiText(Str::maskkind_causal, lang);
    case engine::MaskKind::kKeyPadding: return UiText(Str::maskkind_key_padding, lang);
    case engine::MaskKind::kExplicit: return UiText(Str::maskkind_explicit, lang);
  }
  return engine::ToString(k);
}
std::string AlignmentName(engine::CausalAlignment a, const std::string& lang) {
  switch (a) {
    case engine::CausalAlignment::kTopLeft: return UiText(Str::align_top_left, lang);
    case engine::CausalAlignment::kBottomRight: return UiText(Str::align_bottom_right, lang);
  }
  return engine::ToString(a);
}
std::string MergeName(engine::MergeVariant v, const std::string& lang) {
  switch (v) {
    case engine::MergeVariant::kCorrect: return UiText(Str::mergev_correct, lang);
    case engine::MergeVariant::kNoRescale: return UiText(Str::mergev_no_rescale, lang);
    case engine::MergeVariant::kRescaleLOnly: return UiText(Str::mergev_rescale_l_only, lang);
    case engine::MergeVariant::kRescaleUOnly: return UiText(Str::mergev_rescale_u_only, lang);
    case engine::MergeVariant::kAverageBlockOutputs: return UiText(Str::mergev_average_of_block_outputs, lang);
    case engine::MergeVariant::kInvertedFactorOnU: return UiText(Str::mergev_inverted_factor_on_u, lang);
  }
  return engine::ToString(v);
}

}  // namespace bw::view
