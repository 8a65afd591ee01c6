// Python's repr of a float, as json.dumps writes it (@weft/core's digest/py-float.ts is the
// reference): std::to_chars gives the shortest digits that round-trip, as Python and JavaScript
// pick them; only the layout is Python's (exponent form below 1e-4 and from 1e16, two exponent
// digits at least, `.0` on integral values).
#pragma once
#include <charconv>
#include <string>
#include <version>

// std::to_chars and std::from_chars of a double came late to some C++ libraries (Apple's libc++
// among them; libstdc++ has both since GCC 11). Where the library does not announce them, a
// number that is not a short integer is left to the JavaScript reference: same bytes, slower.
// WEFT_NO_FLOAT_CHARCONV forces that path, so it can be built and tested on Linux too.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L && !defined(WEFT_NO_FLOAT_CHARCONV)
#define WEFT_FLOAT_CHARCONV 1
#else
#define WEFT_FLOAT_CHARCONV 0
#endif

/** Appends Python's repr of a finite double: shortest round-trip digits in Python's layout. */
inline bool appendPyFloatRepr(std::string& out, double v) {
#if !WEFT_FLOAT_CHARCONV
  (void)out;
  (void)v;
  return false;
#else
  char sci[64];
  auto r = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  if (r.ec != std::errc()) return false;
  const char* p = sci;
  if (*p == '-') {
    out.push_back('-');
    p++;
  }
  char digits[32];
  size_t k = 0;
  for (; p < r.ptr && *p != 'e'; p++)
    if (*p != '.') digits[k++] = *p;
  if (p >= r.ptr) return false;
  int exp = 0;
  auto e = std::from_chars(p + 1 + (p[1] == '+' ? 1 : 0), r.ptr, exp);
  if (e.ec != std::errc()) return false;
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      const size_t whole = static_cast<size_t>(exp) + 1;
      for (size_t j = 0; j < whole; j++) out.push_back(j < k ? digits[j] : '0');
      out.push_back('.');
      if (k > whole) out.append(digits + whole, k - whole);
      else out.push_back('0');
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exp - 1), '0');
      out.append(digits, k);
    }
    return true;
  }
  out.push_back(digits[0]);
  if (k > 1) {
    out.push_back('.');
    out.append(digits + 1, k - 1);
  }
  out.push_back('e');
  out.push_back(exp < 0 ? '-' : '+');
  const int a = exp < 0 ? -exp : exp;
  if (a < 10) out.push_back('0');
  char ed[8];
  auto w = std::to_chars(ed, ed + sizeof ed, a);
  out.append(ed, w.ptr);
  return true;
#endif
}
