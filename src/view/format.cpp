// Number formatting; see format.h.
#include "view/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace bw::view {

std::string FormatInt(std::int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out = v < 0 ? "\u2212" : "";
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out.push_back(',');
    out.push_back(digits[k]);
  }
  return out;
}

std::string FormatDouble(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x < 0 ? "\u2212\u221e" : "+\u221e";
  if (x == 0) return "0";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", x);
  std::string s = buf;
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);  // typographic minus
  return s;
}

std::vector<std::string> FormatDistinct(const std::vector<double>& values) {
  std::vector<double> sorted;
  for (double x : values)
    if (std::isfinite(x) && x != 0) sorted.push_back(x);
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  int digits = 4;
  for (; digits < 17; ++digits) {
    bool distinct = true;
    char a[64], b[64];
    for (size_t k = 1; k < sorted.size() && distinct; ++k) {
      std::snprintf(a, sizeof a, "%.*g", digits, sorted[k - 1]);
      std::snprintf(b, sizeof b, "%.*g", digits, sorted[k]);
      distinct = std::strcmp(a, b) != 0;
    }
    if (distinct) break;
  }
  std::vector<std::string> out;
  for (double x : values) {
    if (!std::isfinite(x) || x == 0 || digits == 4) {
      out.push_back(FormatDouble(x));
      continue;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    std::string s = buf;
    if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
    out.push_back(s);
  }
  return out;
}

namespace {
template <class Elem, class Fn>
std::string Join(const std::vector<Elem>& items, Fn fn) {
  if (items.size() == 1) return fn(items[0]);
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + fn(items[i]);
  return s + ")";
}
}  // namespace

std::string FormatVector(const Eigen::VectorXd& v) {
  std::vector<double> items(v.data(), v.data() + v.size());
  return Join(items, FormatDouble);
}

std::string FormatIntTuple(const std::vector<std::int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

std::string FormatFraction(const engine::Rational& q) {
  std::string s = engine::ToFractionString(q);
  if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
  return s;
}

std::string FormatExact(const engine::Rational& q) {
  if (engine::Denominator(q) == 1) return FormatFraction(q);  // Rational is canonical (engine/exact.h)
  return FormatFraction(q) + " \u2248 " + FormatDouble(engine::ToDouble(q));
}

std::string FormatExactVector(const std::vector<engine::Rational>& v) { return Join(v, FormatExact); }

std::string FormatLogOf(const engine::Rational& M) {
  if (M == 0) return "\u2212\u221e";
  if (M == 1) return "0";
  if (engine::Denominator(M) == 1) return "ln " + engine::ToString(engine::Numerator(M));
  return "ln(" + FormatFraction(M) + ")";
}

std::string FormatBytes(std::int64_t b) {
  char buf[64];
  if (b >= (1 << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1 << 30));
  else if (b >= (1 << 20)) std::snprintf(buf, sizeof buf, "%.2f MiB", static_cast<double>(b) / (1 << 20));
  else if (b >= (1 << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / (1 << 10));
  else std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
  return buf;
}

}  // namespace bw::view
