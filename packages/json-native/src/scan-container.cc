// The end of a JSON container whose text arrives in pieces: only strings (for the brackets inside
// them) and brackets matter. The same state machine as JsonStreamParser.scanRaw in the server
// (apps/server/src/http/log-body/json-stream-parser.ts), which stays the reference and the
// fallback; a JavaScript charCodeAt loop over every character of a 64 MB log was ~0.6 s of the
// main thread (BENCHMARKS.md, scenario 4).
//
// scanContainer(text, state, maxDepth): `state` is an Int32Array [inString, escaped, depth] that
// carries over from the previous piece. Returns the index of the bracket that closes the
// container, -1 when the piece ends first (state updated), or -(i + 2) when the bracket at i
// nests deeper than maxDepth.
#include <string>

#include "addon.h"

napi_value ScanContainer(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value args[3];
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, args, nullptr, nullptr) != napi_ok || argc < 3) {
    napi_throw_type_error(env, nullptr, "scanContainer(text, state, maxDepth)");
    return nullptr;
  }
  size_t len = 0;
  napi_typedarray_type type;
  size_t stateLength = 0;
  void* stateData = nullptr;
  int32_t maxDepth = 0;
  if (napi_get_value_string_utf16(env, args[0], nullptr, 0, &len) != napi_ok ||
      napi_get_typedarray_info(env, args[1], &type, &stateLength, &stateData, nullptr, nullptr) != napi_ok ||
      type != napi_int32_array || stateLength < 3 || napi_get_value_int32(env, args[2], &maxDepth) != napi_ok) {
    napi_throw_type_error(env, nullptr, "scanContainer(text: string, state: Int32Array(3), maxDepth: number)");
    return nullptr;
  }
  std::u16string text(len, u'\0');
  size_t copied = 0;
  napi_get_value_string_utf16(env, args[0], text.data(), len + 1, &copied);
  int32_t* state = static_cast<int32_t*>(stateData);
  bool inString = state[0] != 0;
  bool escaped = state[1] != 0;
  int32_t depth = state[2];
  int64_t end = -1;
  const char16_t* s = text.data();
  for (size_t i = 0; i < copied; i++) {
    const char16_t c = s[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c == u'\\') escaped = true;
      else if (c == u'"') inString = false;
    } else if (c == u'"') {
      inString = true;
    } else if (c == u'{' || c == u'[') {
      if (++depth > maxDepth) {
        end = -static_cast<int64_t>(i) - 2;
        break;
      }
    } else if ((c == u'}' || c == u']') && --depth == 0) {
      end = static_cast<int64_t>(i);
      break;
    }
  }
  state[0] = inString;
  state[1] = escaped;
  state[2] = depth;
  napi_create_int64(env, end, &result);
  return result;
}
