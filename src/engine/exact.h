// The engine's exact number types, one for both builds (desktop and the web edition, where GMP is not
// available): Boost.Multiprecision's header-only cpp_int / cpp_rational (Debian libboost-dev).
// A Rational is always kept in canonical form (lowest terms, positive denominator), so 130/6 == 65/3
// and prints as "65/3". Used by the single-query lesson's exact replay (single_query.h) and the
// MoE lessons' FLOP counts (moe_plan.h); nothing outside the engine names the library.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <string>

namespace bw::engine {

using BigInt = boost::multiprecision::cpp_int;        // arbitrary-precision integer (6·N·D FLOPs)
using Rational = boost::multiprecision::cpp_rational; // arbitrary-precision fraction, canonical

inline BigInt Numerator(const Rational& q) { return boost::multiprecision::numerator(q); }
inline BigInt Denominator(const Rational& q) { return boost::multiprecision::denominator(q); }
// Nearest double (±inf beyond its range).
inline double ToDouble(const Rational& q) { return q.convert_to<double>(); }
// Decimal digits: "6000000000000000000000", "-3".
inline std::string ToString(const BigInt& z) { return z.str(); }

}  // namespace bw::engine
