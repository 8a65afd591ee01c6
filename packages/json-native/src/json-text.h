// What the addon's readers of JSON text share: JSON's escapes, and code point order of UTF-16.
#pragma once
#include <cstddef>

namespace json_text {

inline int hexValue(char16_t c) {
  if (c >= u'0' && c <= u'9') return c - u'0';
  if (c >= u'a' && c <= u'f') return c - u'a' + 10;
  if (c >= u'A' && c <= u'F') return c - u'A' + 10;
  return -1;
}

/**
 * The escape at s[i] (a backslash) of a text of n units: the unit it stands for and the number of
 * units it takes, or 0 when it is not one of JSON's escapes.
 */
inline size_t readEscape(const char16_t* s, size_t i, size_t n, char16_t& unit) {
  if (i + 1 >= n) return 0;
  switch (s[i + 1]) {
    case u'"': case u'\\': case u'/': unit = s[i + 1]; return 2;
    case u'b': unit = u'\b'; return 2;
    case u'f': unit = u'\f'; return 2;
    case u'n': unit = u'\n'; return 2;
    case u'r': unit = u'\r'; return 2;
    case u't': unit = u'\t'; return 2;
    case u'u': {
      if (n - i < 6) return 0;
      int v = 0;
      for (size_t k = 2; k < 6; k++) {
        const int h = hexValue(s[i + k]);
        if (h < 0) return 0;
        v = v * 16 + h;
      }
      unit = static_cast<char16_t>(v);
      return 6;
    }
    default:
      return 0;
  }
}

/** Orders UTF-16 units as their code points (and UTF-8 bytes) order, when surrogates are paired. */
inline unsigned codePointRank(char16_t u) {
  return u < 0xd800 ? u : u < 0xe000 ? u + 0x2000u : u - 0x800u;
}

}  // namespace json_text
