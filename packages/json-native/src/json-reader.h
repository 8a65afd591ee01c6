// The walk over a JSON text that the addon's writers share (py-json-dump.cc, stored-json.cc):
// blanks, the dispatch on a value's first character, arrays, literals and the number grammar.
// A writer derives from JsonReader<itself> and supplies what differs: object(), scalarString(),
// number(), put() for one character, and arraySeparator().
#pragma once
#include <cstddef>
#include <cstring>

namespace json_text {

/** A number of JSON's grammar at s[start, end). */
struct NumberLexeme {
  size_t start;
  size_t end;
  /** Digits before any fraction or exponent. */
  size_t intDigits;
  /** No fraction and no exponent. */
  bool integral;
};

template <class Writer>
class JsonReader {
 protected:
  const char16_t* s_ = nullptr;
  size_t n_ = 0;
  size_t i_ = 0;

  /** Reads s[0, n) as one value, blanks around it allowed; false when it is not JSON. */
  bool readAll(const char16_t* s, size_t n) {
    s_ = s;
    n_ = n;
    i_ = 0;
    skipWs();
    if (!value(0)) return false;
    skipWs();
    return i_ == n_;
  }

  void skipWs() {
    while (i_ < n_ && (s_[i_] == u' ' || s_[i_] == u'\n' || s_[i_] == u'\r' || s_[i_] == u'\t')) i_++;
  }

  bool value(int depth) {
    if (i_ >= n_) return false;
    Writer& w = static_cast<Writer&>(*this);
    switch (s_[i_]) {
      case u'{':
        return w.object(depth + 1);
      case u'[':
        return array(depth + 1);
      case u'"':
        return w.scalarString();
      case u't':
        return literal(u"true", 4);
      case u'f':
        return literal(u"false", 5);
      case u'n':
        return literal(u"null", 4);
      default: {
        NumberLexeme lexeme;
        return readNumber(lexeme) && w.number(lexeme);
      }
    }
  }

  /** Reads and writes the bracket at i_; true when the container is empty, its end read and written too. */
  bool openedEmpty(char16_t open, char16_t close) {
    Writer& w = static_cast<Writer&>(*this);
    i_++;
    w.put(open);
    skipWs();
    if (i_ < n_ && s_[i_] == close) {
      i_++;
      w.put(close);
      return true;
    }
    return false;
  }

  /** What follows an item of a container (past blanks, and read): a comma, its end, or neither. */
  enum class Next { Item, End, Invalid };
  Next afterItem(char16_t close) {
    skipWs();
    if (i_ >= n_) return Next::Invalid;
    const char16_t c = s_[i_++];
    return c == close ? Next::End : c == u',' ? Next::Item : Next::Invalid;
  }

  /** Past blanks, reads `c` (a key's colon); false when something else is there. */
  bool readPast(char16_t c) {
    skipWs();
    if (i_ >= n_ || s_[i_] != c) return false;
    i_++;
    return true;
  }

  bool array(int depth) {
    if (depth > Writer::MAX_DEPTH) return false;
    if (openedEmpty(u'[', u']')) return true;
    Writer& w = static_cast<Writer&>(*this);
    for (;;) {
      skipWs();
      if (!value(depth)) return false;
      const Next next = afterItem(u']');
      if (next == Next::End) break;
      if (next == Next::Invalid) return false;
      w.arraySeparator();
    }
    w.put(u']');
    return true;
  }

  bool literal(const char16_t* word, size_t len) {
    if (n_ - i_ < len || std::memcmp(s_ + i_, word, len * sizeof(char16_t)) != 0) return false;
    Writer& w = static_cast<Writer&>(*this);
    for (size_t k = 0; k < len; k++) w.put(word[k]);
    i_ += len;
    return true;
  }

  /** The number at i_, read past; false when it is not one of JSON's grammar. */
  bool readNumber(NumberLexeme& lexeme) {
    lexeme.start = i_;
    if (i_ < n_ && s_[i_] == u'-') i_++;
    const size_t intStart = i_;
    if (i_ >= n_ || s_[i_] < u'0' || s_[i_] > u'9') return false;
    if (s_[i_] == u'0') i_++;
    else
      while (i_ < n_ && s_[i_] >= u'0' && s_[i_] <= u'9') i_++;
    lexeme.intDigits = i_ - intStart;
    lexeme.integral = true;
    if (i_ < n_ && s_[i_] == u'.') {
      lexeme.integral = false;
      i_++;
      const size_t d = i_;
      while (i_ < n_ && s_[i_] >= u'0' && s_[i_] <= u'9') i_++;
      if (i_ == d) return false;
    }
    if (i_ < n_ && (s_[i_] == u'e' || s_[i_] == u'E')) {
      lexeme.integral = false;
      i_++;
      if (i_ < n_ && (s_[i_] == u'+' || s_[i_] == u'-')) i_++;
      const size_t d = i_;
      while (i_ < n_ && s_[i_] >= u'0' && s_[i_] <= u'9') i_++;
      if (i_ == d) return false;
    }
    lexeme.end = i_;
    return true;
  }
};

}  // namespace json_text
