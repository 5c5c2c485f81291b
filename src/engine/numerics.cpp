// The numerics report; see numerics.h.
#include "engine/numerics.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <sstream>

namespace bw::engine {

const char* ToString(NumericsKind k) {
  switch (k) {
    case NumericsKind::kExpOverflow: return "exp_overflow";
    case NumericsKind::kWeightsUnderflow: return "weights_underflow";
    case NumericsKind::kInfiniteScore: return "infinite_score";
    case NumericsKind::kNaN: return "nan";
    case NumericsKind::kOutOfRange: return "out_of_range";
    case NumericsKind::kAccumulatorOverflow: return "accumulator_overflow";
    case NumericsKind::kProductOverflow: return "product_overflow";
  }
  return "?";
}

void NumericsReport::Add(NumericsEvent e) {
  if (events.size() >= kMaxNumericsEvents) {
    ++dropped;
    return;
  }
  events.push_back(std::move(e));
}

bool NumericsReport::NamesRow(std::int64_t row) const {
  for (const auto& e : events)
    if (e.row == row || e.row < 0) return true;
  return dropped > 0;  // an event past the cap may name it
}

std::int64_t NumericsReport::Count(NumericsKind k) const {
  std::int64_t n = 0;
  for (const auto& e : events) n += e.kind == k;
  return n;
}

namespace {
// The shortest text that reads back as the same double ("800", "1e+300", "0.1").
std::string Num(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  char buf[64];
#if defined(__cpp_lib_to_chars)  // floating-point std::to_chars (libstdc++ 11 on; a feature, not a platform: issue 35 item 7)
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
#else
  // Without it (the web edition's libc++, LLVM 14, has none): the same rule spelled out —
  // the fewest significant digits that read back as x, fixed or scientific, whichever is shorter
  // (fixed on a tie).
  int p = 1;
  for (; p < 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", p - 1, x);
  std::string sci = buf;
  const int exp10 = std::atoi(sci.c_str() + sci.find('e') + 1);
  const size_t e = sci.find('e');
  std::string mant = sci.substr(0, e), ex = sci.substr(e);
  if (mant.find('.') != std::string::npos) {  // "%.*e" never leaves trailing zeros beyond p digits
    while (mant.back() == '0') mant.pop_back();
    if (mant.back() == '.') mant.pop_back();
  }
  sci = mant + ex;
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, p - 1 - exp10), x);
  const std::string fixed = buf;
  return fixed.size() <= sci.size() ? fixed : sci;
#endif
}
}  // namespace

std::string Describe(const NumericsEvent& e) {
  std::ostringstream os;
  const auto where = [&]() {
    std::string w;
    if (e.row >= 0) w += " row " + std::to_string(e.row + 1);
    if (e.col >= 0) {
      const bool key = e.quantity == "S" || e.quantity == "logits";
      const bool pos = e.row < 0 && (e.quantity == "e^s" || e.quantity == "weights" || e.quantity == "logits" || e.quantity == "w\u00b7v");
      w += pos ? " position " + std::to_string(e.col + 1)
               : std::string(key ? " key " : " column ") + std::to_string(e.col + 1);
    }
    if (e.i >= 0 && e.j >= 0) w += " (tile " + std::to_string(e.i + 1) + "," + std::to_string(e.j + 1) + ")";
    else if (e.j >= 0) w += " (block " + std::to_string(e.j + 1) + ")";
    else if (e.i >= 0) w += " (Q block " + std::to_string(e.i + 1) + ")";
    return w;
  };
  switch (e.kind) {
    case NumericsKind::kExpOverflow:
      os << "exp overflow: e^s = +inf at" << where() << ", s = " << Num(e.value);
      break;
    case NumericsKind::kWeightsUnderflow:
      os << "all weights underflow: every e^s is 0 at" << where() << " although nothing there is masked ("
         << e.quantity << " = 0; largest s = " << Num(e.value) << ")";
      break;
    case NumericsKind::kInfiniteScore:
      os << "infinite score: " << e.quantity << " = " << Num(e.value) << " at" << where();
      break;
    case NumericsKind::kNaN:
      os << "NaN: " << e.quantity << " is NaN at" << where();
      break;
    case NumericsKind::kOutOfRange:
      os << "out of range: " << e.quantity << " at" << where() << " = " << Num(e.value) << " does not fit in "
         << e.precision << " (becomes " << (std::abs(e.value) > 1 ? (e.value > 0 ? "+inf" : "-inf") : "0") << ")";
      break;
    case NumericsKind::kAccumulatorOverflow:
      os << "accumulator overflow: " << e.quantity << " = " << Num(e.value) << " at" << where();
      break;
    case NumericsKind::kProductOverflow:
      os << "product overflow: " << e.quantity << " = " << Num(e.value) << " at" << where() << " (both factors finite)";
      break;
  }
  if (e.kind != NumericsKind::kOutOfRange && !e.precision.empty()) os << " (" << e.precision << ")";
  return os.str();
}

double LargestFinite(int element_bytes) {
  return element_bytes == 4 ? static_cast<double>(std::numeric_limits<float>::max())
                            : std::numeric_limits<double>::max();
}
double SmallestSubnormal(int element_bytes) {
  return element_bytes == 4 ? static_cast<double>(std::numeric_limits<float>::denorm_min())
                            : std::numeric_limits<double>::denorm_min();
}

}  // namespace bw::engine
