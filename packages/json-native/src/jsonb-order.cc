// A JSON text with every object's keys in PostgreSQL jsonb's order (shorter UTF-8 first, then
// byte-wise), values copied as they are: the text SQLite stores for a trajectory, so both
// databases hold the same (@weft/store's objects/value-encoding.ts, whose toStoredJson stays the
// reference and the fallback). The input is JSON.stringify's output; the JavaScript reorder
// copied every object of a 64 MB log, ~0.7 s of the main thread (BENCHMARKS.md, scenario 4).
//
// jsonbOrderText(text) returns the reordered text, or undefined for what only the reference
// handles (a lone surrogate or a repeated key, nesting past MAX_DEPTH, text that is not minified JSON).
#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "addon.h"
#include "json-text.h"

namespace {

using json_text::codePointRank;
using json_text::readEscape;

constexpr int MAX_DEPTH = 1000;

struct Key {
  const char16_t* at;
  size_t len;
  size_t utf8;
};

bool jsonbLess(const Key& a, const Key& b) {
  if (a.utf8 != b.utf8) return a.utf8 < b.utf8;
  size_t n = std::min(a.len, b.len);
  for (size_t i = 0; i < n; i++)
    if (a.at[i] != b.at[i]) return codePointRank(a.at[i]) < codePointRank(b.at[i]);
  return a.len < b.len;
}

struct Member {
  Key key;
  size_t begin;
  size_t end;
};

class Reorderer {
 public:
  Reorderer(const char16_t* s, size_t n) : s_(s), n_(n) { out.reserve(n); }

  bool run() { return value(0) && i_ == n_; }

  std::u16string out;
  char16_t maxUnit = 0;

 private:
  const char16_t* s_;
  size_t n_;
  size_t i_ = 0;
  std::vector<Member> members_;
  // A deque: its strings never move, so keys may point into them.
  std::deque<std::u16string> decodedKeys_;
  std::u16string scratch_;

  bool value(int depth) {
    if (i_ >= n_) return false;
    const char16_t c = s_[i_];
    if (c == u'{') return object(depth + 1);
    if (c == u'[') return array(depth + 1);
    if (c == u'"') return string(nullptr);
    // A number or a literal, up to the next structural character.
    const size_t start = i_;
    while (i_ < n_ && s_[i_] != u',' && s_[i_] != u'}' && s_[i_] != u']' && s_[i_] != u':' && s_[i_] != u'"' &&
           s_[i_] != u'{' && s_[i_] != u'[')
      i_++;
    if (i_ == start) return false;
    // JSON.stringify writes no whitespace: a text with some is not what this was made for.
    for (size_t k = start; k < i_; k++)
      if (s_[k] == u' ' || s_[k] == u'\n' || s_[k] == u'\r' || s_[k] == u'\t') return false;
    out.append(s_ + start, i_ - start);
    return true;
  }

  bool array(int depth) {
    if (depth > MAX_DEPTH) return false;
    out.push_back(s_[i_++]);
    if (i_ < n_ && s_[i_] == u']') {
      out.push_back(s_[i_++]);
      return true;
    }
    for (;;) {
      if (!value(depth) || i_ >= n_) return false;
      const char16_t c = s_[i_++];
      out.push_back(c);
      if (c == u']') return true;
      if (c != u',') return false;
    }
  }

  bool object(int depth) {
    if (depth > MAX_DEPTH) return false;
    out.push_back(s_[i_++]);
    if (i_ < n_ && s_[i_] == u'}') {
      out.push_back(s_[i_++]);
      return true;
    }
    const size_t base = members_.size();
    const size_t contentStart = out.size();
    bool ordered = true;
    for (;;) {
      if (i_ >= n_ || s_[i_] != u'"') return false;
      Member m{{nullptr, 0, 0}, out.size(), 0};
      if (!string(&m.key) || i_ >= n_ || s_[i_] != u':') return false;
      out.push_back(s_[i_++]);
      if (!value(depth)) return false;
      m.end = out.size();
      if (members_.size() > base && !jsonbLess(members_.back().key, m.key)) ordered = false;
      members_.push_back(m);
      if (i_ >= n_) return false;
      const char16_t c = s_[i_++];
      if (c == u'}') break;
      if (c != u',') return false;
      out.push_back(c);
    }
    if (!ordered && !reorder(base, contentStart)) return false;
    members_.resize(base);
    out.push_back(u'}');
    return true;
  }

  bool reorder(size_t base, size_t contentStart) {
    auto first = members_.begin() + static_cast<std::ptrdiff_t>(base);
    std::stable_sort(first, members_.end(), [](const Member& a, const Member& b) { return jsonbLess(a.key, b.key); });
    for (auto it = first + 1; it < members_.end(); ++it)
      if (!jsonbLess((it - 1)->key, it->key)) return false;  // a repeated key
    scratch_.assign(out, contentStart, std::u16string::npos);
    out.resize(contentStart);
    for (auto it = first; it < members_.end(); ++it) {
      if (it != first) out.push_back(u',');
      out.append(scratch_, it->begin - contentStart, it->end - it->begin);
    }
    return true;
  }

  /** Copies a string; for a key, also its decoded units and their UTF-8 length. */
  bool string(Key* key) {
    const size_t start = i_++;
    std::u16string* decoded = nullptr;
    size_t utf8 = 0;
    bool pendingHigh = false;
    for (;;) {
      if (i_ >= n_) return false;
      const char16_t c = s_[i_];
      if (c == u'"') {
        if (pendingHigh) return false;
        break;
      }
      char16_t unit = c;
      if (c == u'\\') {
        if (key && !decoded) decoded = &decodedKeys_.emplace_back(s_ + start + 1, i_ - start - 1);
        const size_t length = readEscape(s_, i_, n_, unit);
        if (length == 0) return false;
        i_ += length;
      } else {
        if (c > maxUnit) maxUnit = c;
        i_++;
      }
      if (key) {
        // A lone surrogate has no UTF-8 form (the store refuses it): left to the reference.
        if (pendingHigh) {
          if (unit < 0xdc00 || unit >= 0xe000) return false;
          pendingHigh = false;
          utf8 += 1;  // a pair is 4 bytes: 3 counted for its high half
        } else if (unit >= 0xd800 && unit < 0xdc00) {
          pendingHigh = true;
          utf8 += 3;
        } else if (unit >= 0xdc00 && unit < 0xe000) {
          return false;
        } else {
          utf8 += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
        }
        if (decoded) decoded->push_back(unit);
      }
    }
    i_++;
    out.append(s_ + start, i_ - start);
    if (key) *key = decoded ? Key{decoded->data(), decoded->size(), utf8} : Key{s_ + start + 1, i_ - start - 2, utf8};
    return true;
  }
};

}  // namespace

napi_value JsonbOrderText(napi_env env, napi_callback_info info) {
  std::u16string text;
  if (!stringArgument(env, info, text, "jsonbOrderText: a string is required")) return nullptr;
  napi_value result;
  napi_get_undefined(env, &result);
  Reorderer r(text.data(), text.size());
  if (!r.run()) return result;
  if (r.maxUnit < 0x100) {
    // One byte per character, as V8 keeps Latin-1 text: half the memory of UTF-16.
    std::string latin1(r.out.begin(), r.out.end());
    napi_create_string_latin1(env, latin1.data(), latin1.size(), &result);
  } else {
    napi_create_string_utf16(env, r.out.data(), r.out.size(), &result);
  }
  return result;
}
