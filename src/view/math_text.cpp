// See math_text.h.
#include "view/math_text.h"

#include "view/format.h"
#include "view/scene.h"

namespace bw::view {

namespace {

void ReplaceAll(std::string& s, const std::string& from, const std::string& to) {
  for (size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// The key's text, or the id itself when the table has none (the zh test names it).
std::string Named(const std::string& key, const char* id, const std::string& lang) {
  const std::string& t = UiText(key, lang);
  return t == key ? std::string(id) : t;
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
  const bool zh = lang == "zh";
  const auto s = [](std::int64_t v) { return FormatInt(v); };
  const std::int64_t q = d.tiles.B_c;
  return {
      (zh ? "FlashAttention 算法 1 第 1 行：SRAM 容纳 M = " : "FlashAttention Algorithm 1, line 1: SRAM holds M = ") + s(d.M) +
          (zh ? " 个元素；d = " : " elements; d = ") + s(d.d),
      zh ? "K_j、V_j（各 B_c × d）和 Q_i、O_i（各 B_r × d）要同时放下：4 块，每块约 M/(4d) 行"
         : "K_j, V_j (B_c × d each) and Q_i, O_i (B_r × d each) must fit together: 4 blocks of about M/(4d) rows",
      "B_c = ceil(M / 4d) = ceil(" + s(d.M) + " / " + s(4 * d.d) + ") = " + s(q),
      "B_r = min(ceil(M / 4d), d) = min(" + s(q) + ", " + s(d.d) + ") = " + s(d.tiles.B_r) +
          (zh ? "（B_r \u2264 d 让 S 的 B_r \u00d7 B_c 块放得进 M：B_r\u00b7B_c \u2264 M/4）"
              : "  (B_r \u2264 d keeps the B_r \u00d7 B_c tile of S within M: B_r\u00b7B_c \u2264 M/4)"),
  };
}

std::string CountFormula(bool read, const std::string& expr, std::int64_t elements, const std::string& lang) {
  const bool zh = lang == "zh";
  return std::string(read ? (zh ? "读 = " : "reads = ") : (zh ? "写 = " : "writes = ")) + MathText(expr) + " = " + FormatInt(elements) +
         (zh ? " 个元素" : elements == 1 ? " element" : " elements");
}

std::string AlgorithmName(engine::Algorithm a, const std::string& lang) {
  return Named(std::string("algo_") + engine::ToString(a), engine::ToString(a), lang);
}
std::string MaskName(engine::MaskKind k, const std::string& lang) {
  return Named(std::string("maskkind_") + engine::ToString(k), engine::ToString(k), lang);
}
std::string AlignmentName(engine::CausalAlignment a, const std::string& lang) {
  return Named(std::string("align_") + engine::ToString(a), engine::ToString(a), lang);
}
std::string MergeName(engine::MergeVariant v, const std::string& lang) {
  return Named(std::string("mergev_") + engine::ToString(v), engine::ToString(v), lang);
}

}  // namespace bw::view
