// @weft/json-native: JSON work of the trajectory log and table rows that JavaScript does several
// times slower.
#include "addon.h"

NAPI_MODULE_INIT() {
  const napi_property_descriptor functions[] = {
      {"pyJsonDumpOfText", nullptr, PyJsonDumpOfText, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"pyJsonDumpOfLexemes", nullptr, PyJsonDumpOfLexemes, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"storedJsonOfText", nullptr, StoredJsonOfText, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"scanContainer", nullptr, ScanContainer, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof functions / sizeof functions[0], functions);
  return exports;
}
