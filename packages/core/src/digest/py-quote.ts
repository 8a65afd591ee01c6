/** Printable ASCII except `"` and `\`: emitted verbatim. */
export const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const ASCII_ESCAPES: string[] = [];
for (let c = 0; c < 0x80; c++) ASCII_ESCAPES.push('\\u' + c.toString(16).padStart(4, '0'));
ASCII_ESCAPES[0x22] = '\\"';
ASCII_ESCAPES[0x5c] = '\\\\';
ASCII_ESCAPES[0x0a] = '\\n';
ASCII_ESCAPES[0x0d] = '\\r';
ASCII_ESCAPES[0x09] = '\\t';
ASCII_ESCAPES[0x08] = '\\b';
ASCII_ESCAPES[0x0c] = '\\f';

/**
 * Python's ensure_ascii string encoder (json.encoder.py_encode_basestring_ascii):
 * short escapes for `" \ \n \r \t \b \f`, lowercase `\uXXXX` for everything
 * else outside 0x20–0x7E (so DEL and U+2028 too). Escaping per UTF-16 unit is
 * exactly Python's behaviour: astral chars come out as surrogate-pair escapes
 * and lone surrogates as single escapes. The result is always pure ASCII.
 */
export function pyQuote(s: string): string {
  if (PLAIN.test(s)) return '"' + s + '"';
  let out = '"';
  let runStart = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (i > runStart) out += s.slice(runStart, i);
    out += c < 0x80 ? (ASCII_ESCAPES[c] as string) : '\\u' + c.toString(16).padStart(4, '0');
    runStart = i + 1;
  }
  if (runStart < n) out += s.slice(runStart);
  return out + '"';
}
