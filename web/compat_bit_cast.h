// Force-included (-include) into the web build's files that use std::bit_cast (web/CMakeLists.txt):
// Emscripten 3.1.6's libc++ has <bit> without std::bit_cast (C++20; its <version> leaves
// __cpp_lib_bit_cast undefined), which the engine uses (src/engine/tile_simd.cpp). Clang's builtin
// does the same thing, so the one source compiles on both builds. Remove when Debian's emscripten
// ships a libc++ that has it.
#pragma once
#ifdef __cplusplus
#include <bit>
#include <type_traits>
#if !defined(__cpp_lib_bit_cast)
namespace std {
template <class To, class From>
  requires(sizeof(To) == sizeof(From) && is_trivially_copyable_v<To> && is_trivially_copyable_v<From>)
constexpr To bit_cast(const From& from) noexcept {
  return __builtin_bit_cast(To, from);
}
}  // namespace std
#endif
#endif
