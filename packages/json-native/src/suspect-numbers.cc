// Whether a JSON text may hold a number that would not be stored as sent: the server's prefilter
// (apps/server/src/http/body/parse-json.ts, SUSPECT, which stays the reference and the fallback):
// an integer part of 16+ digits, a 3-digit exponent, or a fraction of `fractionDigits`+ digits.
// The regex, with its lookbehind, was ~0.3 s of the main thread per 64 MB log (BENCHMARKS.md,
// scenario 4); this is one pass over the text.
//
// hasSuspectNumber(text, fractionDigits) is exactly SUSPECT.test(text), except that a text that
// starts inside a digit run (a window of a longer text) counts that run as an integer part.
#include <string>

#include "addon.h"

namespace {

inline bool isDigit(char16_t c) { return c >= u'0' && c <= u'9'; }

bool hasSuspect(const char16_t* s, size_t n, size_t fractionDigits) {
  size_t run = 0;
  bool afterDot = false;
  for (size_t i = 0; i < n; i++) {
    const char16_t c = s[i];
    if (isDigit(c)) {
      if (run == 0) afterDot = i > 0 && s[i - 1] == u'.';
      run++;
      if (afterDot ? run >= fractionDigits : run >= 16) return true;
      continue;
    }
    run = 0;
    if (c == u'e' || c == u'E') {
      size_t j = i + 1;
      if (j < n && (s[j] == u'+' || s[j] == u'-')) j++;
      if (j + 3 <= n && isDigit(s[j]) && isDigit(s[j + 1]) && isDigit(s[j + 2])) return true;
    }
  }
  return false;
}

}  // namespace

napi_value HasSuspectNumber(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value args[2];
  size_t len = 0;
  int64_t fractionDigits = 0;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, nullptr) != napi_ok || argc < 2 ||
      napi_get_value_string_utf16(env, args[0], nullptr, 0, &len) != napi_ok ||
      napi_get_value_int64(env, args[1], &fractionDigits) != napi_ok || fractionDigits < 1) {
    napi_throw_type_error(env, nullptr, "hasSuspectNumber(text: string, fractionDigits: number)");
    return nullptr;
  }
  std::u16string text(len, u'\0');
  size_t copied = 0;
  napi_get_value_string_utf16(env, args[0], text.data(), len + 1, &copied);
  napi_value result;
  napi_get_boolean(env, hasSuspect(text.data(), copied, static_cast<size_t>(fractionDigits)), &result);
  return result;
}
