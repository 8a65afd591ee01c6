// JSON cells move as the text they are stored as (row-codec.ts). Two things need that text
// without parsing it into values: the importer, which takes each cell of a `<table>.jsonl` line
// as it stands in the line (rebuilding it from a parse would put the keys in some other order),
// and a SQLite target, which keeps JSON as text and is given PostgreSQL jsonb's display form.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isBlank = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index just past the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  for (;;) {
    if (quote === -1) throw new SyntaxError('unterminated string');
    // A quote ends the string unless an odd number of backslashes escapes it.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
}

/** The index just past the JSON value starting at `at` (the text is valid JSON). */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at);
  let depth = 0;
  let i = at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return i; // the end of the enclosing object: a scalar ended here
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === 0x2c || isBlank(c))) return i; // a scalar's end
  }
  return i;
}

function skipBlanks(text: string, at: number): number {
  while (isBlank(text.charCodeAt(at))) at++;
  return at;
}

/**
 * The members of a JSON object, each value as the text it is written as in `line`. `line` must
 * already be known to be one valid JSON object (the importer parses it first). A key written twice
 * keeps its last value, as JSON parsers do.
 */
export function memberTexts(line: string): Map<string, string> {
  const members = new Map<string, string>();
  let i = skipBlanks(line, 0) + 1; // past '{'
  for (;;) {
    i = skipBlanks(line, i);
    if (line.charCodeAt(i) !== QUOTE) return members; // '}' (an empty object)
    const keyEnd = stringEnd(line, i);
    const key = JSON.parse(line.slice(i, keyEnd)) as string;
    const start = skipBlanks(line, skipBlanks(line, keyEnd) + 1); // past ':'
    const end = valueEnd(line, start);
    members.set(key, line.slice(start, end));
    i = skipBlanks(line, end);
    if (line.charCodeAt(i) !== 0x2c) return members; // '}'
    i++;
  }
}

/**
 * Valid JSON text without the blanks between its tokens; strings, keys and their order, and
 * number spellings are kept. PostgreSQL shows jsonb with a blank after each ',' and ':', which
 * SQLite would keep, and count (a call's storage size): a SQLite target gets the text as a store
 * writes it instead. Text that has no such blank is returned as it is.
 */
export function minifyJson(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i) - 1;
    else if (isBlank(c)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}
