// Number formatting shared by the accumulator panel, the CLI and lesson placeholders.
// Exact values print as fractions ("160/7"), doubles with 4 significant digits ("22.86"),
// m as a logarithm when exact ("ln 2"), the empty state's m as "−∞".
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/single_query.h"

namespace bw::view {

std::string FormatInt(std::int64_t v);                    // 1234567 → "1,234,567" (counters read from afar)
std::string FormatDouble(double x);                       // "22.86", "1.5", "4.54e-05", "−∞", "NaN"
std::string FormatVector(const Eigen::VectorXd& v);       // "22.86" (d_v = 1) or "(1, 2.5)"
std::string FormatIntTuple(const std::vector<std::int64_t>& v);  // "(2, 1, 5)": counts per expert, per device
// Values shown together (one table, one list): each with as many significant digits as it takes
// (4 at least, 17 at most) for distinct values to print distinctly: −60000 and −60001 give
// "−60000" and "−60001", not "−6e+04" twice.
std::vector<std::string> FormatDistinct(const std::vector<double>& values);
std::string FormatFraction(const engine::Rational& q);    // "160/7", "40"
std::string FormatExact(const engine::Rational& q);       // "160/7 ≈ 22.86", "40"
std::string FormatExactVector(const std::vector<engine::Rational>& v);
// Bytes in binary units: "512 B", "1.5 KiB", "2.00 MiB", "1.25 GiB".
std::string FormatBytes(std::int64_t bytes);
std::string FormatLogOf(const engine::Rational& M);       // m = ln M: "ln 2", "0", "−∞", "ln(3/2)"
// Every character the functions above can write (with the "—" of a quantity not reached yet and the
// "…" and "–" of a summarised list): a model of thousands of blocks lists these for the font's glyph
// ranges instead of every number it could show (ScenarioModel::Texts).
inline constexpr const char* kNumberGlyphs = "0123456789 ,./()%+-e\u2212\u2248\u221e\u2014\u2026\u2013lnNaKiBMG";

}  // namespace bw::view
