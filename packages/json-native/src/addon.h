// The addon's functions (addon.cc registers them); each file's header says what it does and why.
#pragma once
#include <node_api.h>

#include <memory>
#include <string>

napi_value PyJsonDumpOfText(napi_env env, napi_callback_info info);
napi_value PyJsonDumpOfLexemes(napi_env env, napi_callback_info info);
napi_value ScanContainer(napi_env env, napi_callback_info info);
napi_value StoredJsonOfText(napi_env env, napi_callback_info info);

/**
 * The first argument, a string, as UTF-16 units (and as the JavaScript value, in `argOut`); false
 * (a TypeError thrown) when it is not one.
 */
inline bool stringArgument(napi_env env, napi_callback_info info, std::u16string& text, const char* usage, napi_value* argOut = nullptr) {
  size_t argc = 1;
  napi_value arg;
  size_t len = 0;
  if (napi_get_cb_info(env, info, &argc, &arg, nullptr, nullptr) != napi_ok || argc < 1 ||
      napi_get_value_string_utf16(env, arg, nullptr, 0, &len) != napi_ok) {
    napi_throw_type_error(env, nullptr, usage);
    return false;
  }
  text.assign(len, u'\0');
  size_t copied = 0;
  napi_get_value_string_utf16(env, arg, text.data(), len + 1, &copied);
  text.resize(copied);
  if (argOut) *argOut = arg;
  return true;
}

/** Buffers kept for the next call up to this size; a large text's are let go. */
constexpr size_t MAX_RETAINED_BYTES = 1 << 20;

/**
 * One T per thread (the digest thread calls the addon too), kept from call to call so that a call
 * allocates nothing once its buffers have grown; reached through a reference, as each use of a
 * thread_local itself costs a lookup in a shared library.
 */
template <class T>
T& keptPerThread() {
  static thread_local std::unique_ptr<T> kept;
  if (!kept) kept = std::make_unique<T>();
  return *kept;
}
