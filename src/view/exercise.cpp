// Checked exercises; see exercise.h.
#include "view/exercise.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace bw::view {

namespace {

// A typed number as sign · digits / 10^decimals, or digits / denominator for a fraction.
struct Typed {
  bool negative = false;
  std::string int_digits, frac_digits;   // decimal: "22" "857"
  std::string den_digits;                // fraction: numerator in int_digits
  bool fraction = false;
};


bool AllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

std::optional<Typed> Parse(const std::string& raw) {
  std::string s = NormaliseTypedNumber(raw);
  Typed t;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    t.negative = s[0] == '-';
    s.erase(0, 1);
  }
  if (const auto slash = s.find('/'); slash != std::string::npos) {
    t.fraction = true;
    t.int_digits = s.substr(0, slash);
    t.den_digits = s.substr(slash + 1);
    if (!AllDigits(t.int_digits) || !AllDigits(t.den_digits)) return std::nullopt;
    if (t.den_digits.find_first_not_of('0') == std::string::npos) return std::nullopt;  // x/0
    return t;
  }
  // A decimal comma (22,86: how much of Europe writes 22.86) reads as the point, when it is the one
  // separator typed; "1,000.5" stays unreadable rather than guessed.
  if (const auto comma = s.find(','); comma != std::string::npos && s.find('.') == std::string::npos && s.find(',', comma + 1) == std::string::npos)
    s[comma] = '.';
  const auto dot = s.find('.');
  t.int_digits = s.substr(0, dot);
  if (dot != std::string::npos) t.frac_digits = s.substr(dot + 1);
  if (t.int_digits.empty() && t.frac_digits.empty()) return std::nullopt;
  if (!t.int_digits.empty() && !AllDigits(t.int_digits)) return std::nullopt;
  if (!t.frac_digits.empty() && !AllDigits(t.frac_digits)) return std::nullopt;
  if (dot != std::string::npos && t.frac_digits.empty()) return std::nullopt;  // "22."
  return t;
}

// Exact value of a digit string (at most 18 digits: the typed answers here are short).
std::optional<engine::Rational> Whole(const std::string& digits) {
  if (digits.size() > 18) return std::nullopt;
  return engine::Rational(std::strtol(digits.empty() ? "0" : digits.c_str(), nullptr, 10));
}

engine::Rational PowerOfTen(size_t k) {
  engine::Rational p(1);
  for (size_t i = 0; i < k; ++i) p *= 10;
  return p;
}

int SignificantDigits(const Typed& t) {
  const std::string all = t.int_digits + t.frac_digits;
  const auto first = all.find_first_not_of('0');
  return first == std::string::npos ? 0 : static_cast<int>(all.size() - first);   // "0", "0.00": none
}

engine::Rational Abs(engine::Rational x) { return x < 0 ? engine::Rational(-x) : x; }

}  // namespace

std::string NormaliseTypedNumber(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = s[i];
    if (c == 0xEF && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBC) {
      const unsigned char d = s[i + 2];  // U+FF00 + (d − 0x80)
      if (d >= 0x90 && d <= 0x99) { out += static_cast<char>('0' + (d - 0x90)); i += 3; continue; }
      if (d == 0x8F) { out += '/'; i += 3; continue; }
      if (d == 0x8E) { out += '.'; i += 3; continue; }
      if (d == 0x8C) { out += ','; i += 3; continue; }
      if (d == 0x8D) { out += '-'; i += 3; continue; }
    }
    if (s.compare(i, 3, "\u2212") == 0) { out += '-'; i += 3; continue; }
    if (s.compare(i, 3, "\u2248") == 0 && out.empty()) { i += 3; continue; }
    if ((c == '~' && out.empty()) || c == ' ' || c == '\t') { ++i; continue; }
    out += static_cast<char>(c);
    ++i;
  }
  return out;
}

// A typed decimal that is the value correctly rounded: right with 3 significant digits or more; with
// fewer, too coarse to tell — save a zero (no significant digit), which says nothing of a value that
// is not zero (the value 0 itself is right above, exactly).
namespace {
CheckVerdict Coarse(const Typed& t) {
  const int digits = SignificantDigits(t);
  return digits >= 3 ? CheckVerdict::kRight : digits == 0 ? CheckVerdict::kWrong : CheckVerdict::kTooCoarse;
}
}  // namespace

CheckVerdict CheckTypedNumber(const std::string& typed, const ExpectedNumber& expected) {
  const auto t = Parse(typed);
  if (!t) return CheckVerdict::kUnreadable;
  // The typed value exactly, as a rational.
  engine::Rational v;
  if (t->fraction) {
    const auto num = Whole(t->int_digits), den = Whole(t->den_digits);
    if (!num || !den) return CheckVerdict::kUnreadable;
    v = *num / *den;
  } else {
    const auto whole = Whole(t->int_digits + t->frac_digits);
    if (!whole) return CheckVerdict::kUnreadable;
    v = *whole / PowerOfTen(t->frac_digits.size());
  }
  if (t->negative) v = -v;

  // A fraction must equal the value. A whole number or a decimal with k decimals must equal it or
  // be it correctly rounded to k decimals, with at least 3 significant digits.
  const size_t k = t->fraction ? 0 : t->frac_digits.size();
  if (expected.exact) {
    if (v == *expected.exact) return CheckVerdict::kRight;
    if (t->fraction) return CheckVerdict::kWrong;
    const engine::Rational half_unit = engine::Rational(1) / (PowerOfTen(k) * 2);
    // (Exactly half a unit away is no rounding of it: α = 1/2 typed as 0 or 1 — block 1's α and
    // block 2's β, the mix-up N50/s1 asks about — was "on the right track"; issue 29's walk-through.)
    if (Abs(v - *expected.exact) >= half_unit) return CheckVerdict::kWrong;
    return Coarse(*t);
  }
  if (!std::isfinite(expected.value)) return CheckVerdict::kWrong;  // NaN equals nothing
  const double sign = t->negative ? -1 : 1;
  const double x = t->fraction ? sign * std::strtod(t->int_digits.c_str(), nullptr) / std::strtod(t->den_digits.c_str(), nullptr)
                               : sign * std::strtod((t->int_digits + "." + t->frac_digits).c_str(), nullptr);
  const double scale = std::max(std::abs(expected.value), 1e-300);
  if (std::abs(x - expected.value) <= 5e-12 * scale) return CheckVerdict::kRight;  // equal to 12 digits
  if (t->fraction) return CheckVerdict::kWrong;
  const double half_unit = 0.5 * std::pow(10.0, -static_cast<double>(k));
  if (std::abs(x - expected.value) >= half_unit * (1 - 1e-12)) return CheckVerdict::kWrong;
  return Coarse(*t);
}

std::optional<ExpectedNumber> SingleQueryNumber(const engine::SingleQueryRun& run, int event, const std::string& name) {
  if (run.problem.values.cols() != 1) return std::nullopt;  // one number per quantity only when d_v = 1
  auto of = [](double x, const engine::Rational* ex) {
    ExpectedNumber n{x, std::nullopt};
    if (ex) n.exact = *ex;
    return n;
  };
  const bool exact = run.exact.has_value();
  if (name == "output") return of(run.output(0), exact ? &run.exact->output[0] : nullptr);
  if (name == "reference") return of(run.reference_output(0), exact ? &run.exact->reference_output[0] : nullptr);
  if (name == "average") return of(run.average_of_block_outputs(0), exact ? &run.exact->average_of_block_outputs[0] : nullptr);
  // Counts: the blocks, and the merges FA-4's threshold let keep m (a scenario with rescale_threshold).
  const auto count = [](int n) { return ExpectedNumber{static_cast<double>(n), engine::Rational(n)}; };
  if (name == "blocks") return count(run.BlockCount());
  if (name == "rescales_skipped" && run.problem.rescale_threshold) return count(run.rescales_skipped);

  // Running state at the event, or after block J ("@J").
  const auto at = name.find('@');
  const std::string base = name.substr(0, at);
  int block = 0;
  if (at == std::string::npos) {
    block = run.BlocksMergedAt(event);
    if (block == 0) return std::nullopt;  // nothing merged yet: the state is empty
  } else {
    const std::string j = name.substr(at + 1);
    if (!AllDigits(j) || j.size() > 4) return std::nullopt;
    block = std::atoi(j.c_str());
    if (block < 1 || block > run.BlockCount()) return std::nullopt;
  }
  const auto& b = run.blocks[block - 1];
  const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
  if (base == "l") return of(b.after.l, ex ? &ex->after.l : nullptr);
  if (base == "u") return of(b.after.u(0), ex ? &ex->after.u[0] : nullptr);
  if (base == "output_so_far" && at == std::string::npos && !b.after.IsEmpty())
    return of(b.output_so_far(0), ex ? &ex->output_so_far[0] : nullptr);
  if (at == std::string::npos) return std::nullopt;  // the block-only names need "@J"
  if (base == "l_b") return of(b.local.l, ex ? &ex->local.l : nullptr);
  if (base == "u_b") return of(b.local.u(0), ex ? &ex->local.u[0] : nullptr);
  if (base == "local_output" && !b.local.IsEmpty()) return of(b.local_output(0), ex ? &ex->local_output[0] : nullptr);
  if (base == "alpha") return of(b.factors.alpha, ex ? &ex->alpha : nullptr);
  if (base == "beta") return of(b.factors.beta, ex ? &ex->beta : nullptr);
  return std::nullopt;
}

std::optional<ExpectedNumber> WholeNumber(const std::string& formatted) {
  std::string digits;
  bool negative = false;
  std::string s = NormaliseTypedNumber(formatted);
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.erase(0, 1);
  }
  for (char c : s) {
    if (c == ',') continue;
    if (c < '0' || c > '9') return std::nullopt;
    digits += c;
  }
  const auto w = Whole(digits);
  if (!w || digits.empty()) return std::nullopt;
  ExpectedNumber n;
  n.exact = negative ? engine::Rational(-*w) : *w;
  n.value = std::strtod(digits.c_str(), nullptr) * (negative ? -1 : 1);
  return n;
}

}  // namespace bw::view
