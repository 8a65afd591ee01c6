// The addon's functions (addon.cc registers them); each file's header says what it does and why.
#pragma once
#include <node_api.h>

napi_value PyJsonDumpOfText(napi_env env, napi_callback_info info);
napi_value ScanContainer(napi_env env, napi_callback_info info);
napi_value JsonbOrderText(napi_env env, napi_callback_info info);
