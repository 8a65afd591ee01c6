// The text Weft stores for a value sent as JSON text, read as Weave's lossless parse reads it:
// what @weft/store's toStoredJson writes for parseLossless(text) (objects/value-encoding.ts, the
// reference and the fallback). Minified; keys in the order sent; numbers as their lexemes; strings
// escaped as JSON.stringify escapes them (so `\u0041` is stored as `A`, `\/` as `/`). Native for
// speed: a table/create of 100,000 rows built and wrote a tree per row in JavaScript
// (BENCHMARKS.md, scenario 5).
//
// Anything the reference writes differently from the text's own order, or cannot write, gives
// `undefined` and the caller uses the reference: a key that is an array index (JavaScript puts
// those first), a repeated key, NaN or Infinity (stored as null), nesting past MAX_DEPTH, invalid
// JSON.
#include <string>
#include <vector>

#include "addon.h"
#include "json-reader.h"
#include "json-text.h"

namespace {

using json_text::JsonReader;
using json_text::NumberLexeme;
using json_text::readEscape;


class Minifier : public JsonReader<Minifier> {
 public:
  static constexpr int MAX_DEPTH = 1000;

  /** Minifies s[0, n); the buffers are kept from call to call (one Minifier per thread). */
  bool run(const char16_t* s, size_t n) {
    out.clear();
    out.reserve(n);
    keys_.clear();
    keyUnits_.clear();
    return readAll(s, n);
  }

  std::u16string out;

  /** Lets go of a large text's buffers once its text has been copied out. */
  void trim() {
    for (std::u16string* s : {&out, &decoded_, &keyUnits_})
      if (s->capacity() * sizeof(char16_t) > MAX_RETAINED_BYTES) std::u16string().swap(*s);
    if (keys_.capacity() * sizeof(KeySpan) > MAX_RETAINED_BYTES) std::vector<KeySpan>().swap(keys_);
  }

 private:
  friend class JsonReader<Minifier>;
  std::u16string decoded_;
  // The keys of the open objects, one stack of spans of keyUnits_: duplicates are looked for
  // among an object's own.
  struct KeySpan {
    size_t at;
    size_t len;
  };
  std::vector<KeySpan> keys_;
  std::u16string keyUnits_;

  void put(char16_t c) { out.push_back(c); }
  void arraySeparator() { out.push_back(u','); }
  bool scalarString() { return string(false); }

  bool object(int depth) {
    if (depth > MAX_DEPTH) return false;
    if (openedEmpty(u'{', u'}')) return true;
    const size_t base = keys_.size();
    for (;;) {
      skipWs();
      if (i_ >= n_ || s_[i_] != u'"') return false;
      if (keys_.size() > base) out.push_back(u',');
      if (!string(true)) return false;
      if (isArrayIndex(decoded_)) return false;
      for (size_t k = base; k < keys_.size(); k++)
        if (keyUnits_.compare(keys_[k].at, keys_[k].len, decoded_) == 0) return false;
      keys_.push_back({keyUnits_.size(), decoded_.size()});
      keyUnits_ += decoded_;
      if (!readPast(u':')) return false;
      out.push_back(u':');
      skipWs();
      if (!value(depth)) return false;
      const Next next = afterItem(u'}');
      if (next == Next::End) break;
      if (next == Next::Invalid) return false;
    }
    keyUnits_.resize(keys_[base].at);
    keys_.resize(base);
    out.push_back(u'}');
    return true;
  }

  /** A canonical array index ("0" to "4294967294"), which a JavaScript object lists first. */
  static bool isArrayIndex(const std::u16string& key) {
    if (key.empty() || key.size() > 10) return false;
    if (key[0] == u'0') return key.size() == 1;
    unsigned long long v = 0;
    for (char16_t c : key) {
      if (c < u'0' || c > u'9') return false;
      v = v * 10 + (c - u'0');
    }
    return v < 4294967295ULL;
  }

  /**
   * The string at i_, written escaped; a key's (`isKey`) also decoded into decoded_. Most strings
   * hold nothing to decode or escape: those are copied as they are.
   */
  bool string(bool isKey) {
    const size_t start = ++i_;
    size_t run = start;
    while (run < n_) {
      const char16_t c = s_[run];
      if (c < 0x20 || c == u'"' || c == u'\\' || (c & 0xf800) == 0xd800) break;
      run++;
    }
    if (run < n_ && s_[run] == u'"') {
      if (isKey) decoded_.assign(s_ + start, run - start);
      out.push_back(u'"');
      out.append(s_ + start, run - start);
      out.push_back(u'"');
      i_ = run + 1;
      return true;
    }
    decoded_.clear();
    for (;;) {
      run = i_;
      while (run < n_ && s_[run] >= 0x20 && s_[run] != u'"' && s_[run] != u'\\') run++;
      decoded_.append(s_ + i_, run - i_);
      i_ = run;
      if (i_ >= n_) return false;
      const char16_t c = s_[i_];
      if (c == u'"') break;
      if (c < 0x20) return false;
      char16_t unit;
      const size_t length = readEscape(s_, i_, n_, unit);
      if (length == 0) return false;
      decoded_.push_back(unit);
      i_ += length;
    }
    i_++;
    writeEscaped(decoded_);
    return true;
  }

  /** JSON.stringify's escaping: short escapes, other controls and lone surrogates as \u00xx. */
  void writeEscaped(const std::u16string& s) {
    static const char16_t HEX[] = u"0123456789abcdef";
    out.push_back(u'"');
    const size_t n = s.size();
    for (size_t k = 0; k < n; k++) {
      const char16_t u = s[k];
      if (u >= 0x20 && u != u'"' && u != u'\\' && (u < 0xd800 || u >= 0xe000)) {
        out.push_back(u);
        continue;
      }
      if (u >= 0xd800 && u < 0xdc00 && k + 1 < n && s[k + 1] >= 0xdc00 && s[k + 1] < 0xe000) {
        out.push_back(u);
        out.push_back(s[++k]);
        continue;
      }
      switch (u) {
        case u'"': out += u"\\\""; break;
        case u'\\': out += u"\\\\"; break;
        case u'\b': out += u"\\b"; break;
        case u'\f': out += u"\\f"; break;
        case u'\n': out += u"\\n"; break;
        case u'\r': out += u"\\r"; break;
        case u'\t': out += u"\\t"; break;
        default: {
          const char16_t esc[6] = {u'\\', u'u', HEX[(u >> 12) & 15], HEX[(u >> 8) & 15], HEX[(u >> 4) & 15], HEX[u & 15]};
          out.append(esc, 6);
        }
      }
    }
    out.push_back(u'"');
  }

  /** A number, written as its lexeme. */
  bool number(const NumberLexeme& lexeme) {
    out.append(s_ + lexeme.start, lexeme.end - lexeme.start);
    return true;
  }
};

}  // namespace

napi_value StoredJsonOfText(napi_env env, napi_callback_info info) {
  std::u16string& text = keptPerThread<std::u16string>();
  Minifier& minifier = keptPerThread<Minifier>();
  napi_value arg;
  if (!stringArgument(env, info, text, "storedJsonOfText: a string is required", &arg)) return nullptr;
  napi_value result;
  if (!minifier.run(text.data(), text.size())) {
    napi_get_undefined(env, &result);
  } else if (minifier.out == text) {
    // Already its stored form (a row JSON.stringify wrote): the text itself, no second string
    // to allocate and for the garbage collector to copy.
    result = arg;
  } else if (napi_create_string_utf16(env, minifier.out.data(), minifier.out.size(), &result) != napi_ok) {
    napi_get_undefined(env, &result);
  }
  minifier.trim();
  if (text.capacity() * sizeof(char16_t) > MAX_RETAINED_BYTES) std::u16string().swap(text);
  return result;
}
