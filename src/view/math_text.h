// Formulas and engine names as a classroom reads them, in zh or en: "T_r*N_k*d" becomes "T_r·N_k·d"
// (ceil stays spelled out: the CJK font has no ⌈ ⌉); the tile-size derivation and the counter formulas in words; the engine's ids
// ("flash2", "no_rescale", "causal") as names from the UI string table.
#pragma once

#include <string>
#include <vector>

#include "engine/attention.h"
#include "engine/attention_counters.h"

namespace bw::view {

// Code-like arithmetic → typeset: * → ·, <= → ≤, >= → ≥, " x " → " × ", sum_ → Σ_.
std::string MathText(const std::string& expr);
// The derivation of B_r, B_c from the SRAM size M (FlashAttention Algorithm 1, line 1), one line a step.
std::vector<std::string> DerivationLines(const engine::TileDerivation& d, const std::string& lang);
// "读 = T_r·N_k·d = 32 个元素" / "reads = T_r·N_k·d = 32 elements".
std::string CountFormula(bool read, const std::string& expr, std::int64_t elements, const std::string& lang);
// The engine's ids in words.
std::string AlgorithmName(engine::Algorithm a, const std::string& lang);
std::string MaskName(engine::MaskKind k, const std::string& lang);
std::string AlignmentName(engine::CausalAlignment a, const std::string& lang);
std::string MergeName(engine::MergeVariant v, const std::string& lang);

}  // namespace bw::view
