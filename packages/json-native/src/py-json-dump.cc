// Python's json.dumps(value, sort_keys=True) of the value JSON.parse reads from a JSON text, as
// the bytes Weave hashes (see @weft/core's digest/py-json.ts, the JavaScript original that stays
// the reference and the fallback). Native for speed: in JavaScript, JSON.parse of the text and the
// dump of its value were ~3.4 s of CPU per 64 MB trajectory log (BENCHMARKS.md, scenario 4).
//
// Numbers follow JSON.parse then py-json.ts: an integral double below 2^53 is a Python int, any
// other is a float written as Python's repr. pyJsonDumpOfLexemes reads them as Weave's lossless
// parse does instead (py-json.ts's pyJsonDumps of parseLossless): a lexeme without a fraction or
// an exponent is a Python int, written as sent (`-0` as 0); any other is a float (`1.0` stays
// 1.0). Strings are escaped as ensure_ascii=True does, per UTF-16 unit; keys are sorted by code point. Anything this file does not handle exactly as the
// reference does (a lone surrogate in a key, a repeated key, a number beyond a double's range or
// below its smallest, nesting past MAX_DEPTH, invalid JSON) gives `undefined`, and the caller uses
// the reference.
#include "addon.h"
#include "json-reader.h"
#include "json-text.h"
#include "py-float-repr.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

namespace {

using json_text::codePointRank;
using json_text::JsonReader;
using json_text::NumberLexeme;
using json_text::readEscape;

constexpr double TWO_53 = 9007199254740992.0;

/** A key: a view of the input (no escapes) or of a decoded copy. */
struct Key {
  const char16_t* at;
  size_t len;
};

bool keyLess(const Key& a, const Key& b) {
  size_t n = std::min(a.len, b.len);
  for (size_t i = 0; i < n; i++)
    if (a.at[i] != b.at[i]) return codePointRank(a.at[i]) < codePointRank(b.at[i]);
  return a.len < b.len;
}

bool keyEqual(const Key& a, const Key& b) {
  return a.len == b.len && std::memcmp(a.at, b.at, a.len * sizeof(char16_t)) == 0;
}

struct Member {
  Key key;
  size_t begin;  // in out: `"key": value`
  size_t end;
};

/** Tracks surrogate pairs unit by unit; false on a lone one. */
inline bool pairedSurrogate(char16_t unit, bool& pendingHigh) {
  if (pendingHigh) {
    pendingHigh = false;
    return unit >= 0xdc00 && unit < 0xe000;
  }
  if (unit >= 0xd800 && unit < 0xdc00) pendingHigh = true;
  return !(unit >= 0xdc00 && unit < 0xe000);
}

class Dumper : public JsonReader<Dumper> {
 public:
  static constexpr int MAX_DEPTH = 1000;

  /** Dumps s[0, n); the buffers are kept from call to call (one Dumper per thread). */
  bool run(const char16_t* s, size_t n, bool lexemes) {
    lexemes_ = lexemes;
    out.clear();
    out.reserve(n + n / 4);
    members_.clear();
    decodedKeys_.clear();
    return readAll(s, n);
  }

  std::string out;

  /** Lets go of a large text's buffers once its dump has been copied out. */
  void trim() {
    if (out.capacity() > MAX_RETAINED_BYTES) std::string().swap(out);
    if (scratch_.capacity() > MAX_RETAINED_BYTES) std::string().swap(scratch_);
    if (members_.capacity() * sizeof(Member) > MAX_RETAINED_BYTES) std::vector<Member>().swap(members_);
  }

 private:
  friend class JsonReader<Dumper>;
  bool lexemes_ = false;
  std::vector<Member> members_;  // a stack shared by the open objects
  // A deque: its strings never move, so keys may point into them.
  std::deque<std::u16string> decodedKeys_;
  std::string scratch_;

  void put(char16_t c) { out.push_back(static_cast<char>(c)); }
  void arraySeparator() { out += ", "; }
  bool scalarString() { return string(nullptr); }

  bool object(int depth) {
    if (depth > MAX_DEPTH) return false;
    if (openedEmpty(u'{', u'}')) return true;
    const size_t base = members_.size();
    const size_t contentStart = out.size();
    bool sorted = true;
    for (;;) {
      skipWs();
      if (i_ >= n_ || s_[i_] != u'"') return false;
      if (members_.size() > base) out += ", ";
      Member m{{nullptr, 0}, out.size(), 0};
      if (!string(&m.key)) return false;
      if (!readPast(u':')) return false;
      out += ": ";
      skipWs();
      if (!value(depth)) return false;
      m.end = out.size();
      if (members_.size() > base && !keyLess(members_.back().key, m.key)) sorted = false;
      members_.push_back(m);
      const Next next = afterItem(u'}');
      if (next == Next::End) break;
      if (next == Next::Invalid) return false;
    }
    if (!sorted && !reorder(base, contentStart)) return false;
    members_.resize(base);
    out.push_back('}');
    return true;
  }

  /** Rewrites the members written since contentStart in key order. */
  bool reorder(size_t base, size_t contentStart) {
    auto first = members_.begin() + static_cast<std::ptrdiff_t>(base);
    std::stable_sort(first, members_.end(), [](const Member& a, const Member& b) { return keyLess(a.key, b.key); });
    // JSON.parse keeps a repeated key's last value: left to the reference.
    for (auto it = first + 1; it < members_.end(); ++it)
      if (keyEqual((it - 1)->key, it->key)) return false;
    scratch_.assign(out, contentStart, std::string::npos);
    out.resize(contentStart);
    for (auto it = first; it < members_.end(); ++it) {
      if (it != first) out += ", ";
      out.append(scratch_, it->begin - contentStart, it->end - it->begin);
    }
    return true;
  }

  void emitUnit(char16_t u) {
    static const char HEX[] = "0123456789abcdef";
    if (u >= 0x20 && u < 0x7f && u != u'"' && u != u'\\') {
      out.push_back(static_cast<char>(u));
      return;
    }
    switch (u) {
      case u'"': out += "\\\""; return;
      case u'\\': out += "\\\\"; return;
      case u'\n': out += "\\n"; return;
      case u'\r': out += "\\r"; return;
      case u'\t': out += "\\t"; return;
      case u'\b': out += "\\b"; return;
      case u'\f': out += "\\f"; return;
      default: {
        char esc[6] = {'\\', 'u', HEX[(u >> 12) & 15], HEX[(u >> 8) & 15], HEX[(u >> 4) & 15], HEX[u & 15]};
        out.append(esc, 6);
      }
    }
  }

  /** A string at i_, written escaped; when `key` is set, also its decoded units. */
  bool string(Key* key) {
    const size_t start = ++i_;
    out.push_back('"');
    std::u16string* decoded = nullptr;
    bool pendingHigh = false;
    for (;;) {
      // A run of printable ASCII is written as it is, in one go: most of any text.
      size_t run = i_;
      while (run < n_ && s_[run] >= 0x20 && s_[run] < 0x7f && s_[run] != u'"' && s_[run] != u'\\') run++;
      if (run > i_ && !pendingHigh) {
        const size_t at = out.size();
        out.resize(at + (run - i_));
        char* to = &out[at];
        for (const char16_t* from = s_ + i_; from < s_ + run; from++) *to++ = static_cast<char>(*from);
        if (decoded) decoded->append(s_ + i_, run - i_);
        i_ = run;
      }
      if (i_ >= n_) return false;
      char16_t c = s_[i_];
      if (c == u'"') {
        if (key && pendingHigh) return false;
        break;
      }
      if (c < 0x20) return false;
      char16_t unit = c;
      if (c == u'\\') {
        if (key && !decoded) decoded = &decodedKeys_.emplace_back(s_ + start, i_ - start);
        const size_t length = readEscape(s_, i_, n_, unit);
        if (length == 0) return false;
        i_ += length;
      } else {
        i_++;
      }
      // A lone surrogate in a key is its own code point to Python, below U+E000: left to the reference.
      if (key && !pairedSurrogate(unit, pendingHigh)) return false;
      if (decoded) decoded->push_back(unit);
      emitUnit(unit);
    }
    if (key) *key = decoded ? Key{decoded->data(), decoded->size()} : Key{s_ + start, i_ - start};
    i_++;
    out.push_back('"');
    return true;
  }

  /** Writes a number as Python would (see the header): its lexeme, or the repr of its double. */
  bool number(const NumberLexeme& lexeme) {
    const size_t start = lexeme.start;
    const bool integral = lexeme.integral;
    const size_t intDigits = lexeme.intDigits;
    const size_t len = lexeme.end - start;
    if (lexemes_ && integral) {
      if (len == 2 && s_[start] == u'-' && s_[start + 1] == u'0') out.push_back('0');
      else
        for (size_t k = start; k < lexeme.end; k++) out.push_back(static_cast<char>(s_[k]));
      return true;
    }
    // A plain integer of at most 15 digits is below 2^53: its lexeme is its Python int.
    if (integral && intDigits <= 15) {
      if (len == 2 && s_[start] == u'-' && s_[start + 1] == u'0') {
        out.push_back('0');
        return true;
      }
      for (size_t k = start; k < lexeme.end; k++) out.push_back(static_cast<char>(s_[k]));
      return true;
    }
#if !WEFT_FLOAT_CHARCONV
    return false;  // left to the reference (py-float-repr.h says when)
#else
    char text[400];
    if (len >= sizeof text) return false;
    for (size_t k = 0; k < len; k++) text[k] = static_cast<char>(s_[start + k]);
    double v;
    auto parsed = std::from_chars(text, text + len, v);
    if (parsed.ec != std::errc() || parsed.ptr != text + len || !std::isfinite(v)) return false;
    // A zero (-0.0 too) is the Python int 0, as in py-json.ts; but a nonzero lexeme that reads as
    // zero (an underflow) is left to the reference.
    if (v == 0) {
      for (size_t k = 0; k < len && text[k] != 'e' && text[k] != 'E'; k++)
        if (text[k] >= '1' && text[k] <= '9') return false;
    }
    if (lexemes_) return appendPyFloatRepr(out, v);
    if (v == std::trunc(v) && std::fabs(v) < TWO_53) {
      char digits[32];
      auto r = std::to_chars(digits, digits + sizeof digits, static_cast<long long>(v));
      out.append(digits, r.ptr);
      return true;
    }
    return appendPyFloatRepr(out, v);
#endif
  }
};

/** The dump of the string argument, or undefined; `bytes`: as a Buffer, else as a (Latin-1) string. */
napi_value dumpOfText(napi_env env, napi_callback_info info, bool lexemes, bool bytes) {
  std::u16string& text = keptPerThread<std::u16string>();
  Dumper& dumper = keptPerThread<Dumper>();
  if (!stringArgument(env, info, text, "a string is required")) return nullptr;
  napi_value result;
  const std::string& out = dumper.out;
  void* data = nullptr;
  if (!dumper.run(text.data(), text.size(), lexemes) ||
      (bytes ? napi_create_buffer_copy(env, out.size(), out.data(), &data, &result)
             : napi_create_string_latin1(env, out.data(), out.size(), &result)) != napi_ok) {
    napi_get_undefined(env, &result);
  }
  dumper.trim();
  if (text.capacity() * sizeof(char16_t) > MAX_RETAINED_BYTES) std::u16string().swap(text);
  return result;
}

}  // namespace

napi_value PyJsonDumpOfText(napi_env env, napi_callback_info info) { return dumpOfText(env, info, false, true); }

// A string rather than a Buffer: a Buffer per table row costs more than the dump (its backing
// store, and the collector's work for many small ones); the dump is ASCII, hashed as it is.
napi_value PyJsonDumpOfLexemes(napi_env env, napi_callback_info info) { return dumpOfText(env, info, true, false); }
