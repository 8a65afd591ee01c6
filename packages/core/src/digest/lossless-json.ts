/**
 * A JSON parser that keeps every number's source lexeme.
 *
 * Why not JSON.parse: Weave hashes Python's `json.dumps` output, and Python
 * keeps the int/float distinction that JSON.parse throws away (`1` and `1.0`
 * hash differently; a 30-digit int must survive exactly). So digests have to
 * be computed from a tree built from the raw request text.
 *
 * Tree shape (`JsonNode`):
 *   null | boolean | string      as in JSON.parse
 *   JsonNumber                   number, with its lexeme and int/float flag
 *   JsonNode[]                   arrays
 *   JsonObject                   object without Object.prototype on its chain,
 *                                so `__proto__` is an ordinary own key
 *   JsonText                     an array or object still as its text, parsed
 *                                at the first look inside (see the class)
 *
 * Acceptance follows Python's `json.loads` defaults: strict RFC 8259 plus the
 * bare literals `NaN`, `Infinity` and `-Infinity`; raw control characters in
 * strings are rejected; duplicate keys keep the last value.
 */

export type JsonNode = null | boolean | string | JsonNumber | JsonText | JsonNode[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonNode;
}

/** Floats are lexemes with `.`, `e`/`E`, or one of Python's non-finite literals. */
const FLOAT_LEXEME = /[.eEIN]/;
const VALID_NUMBER = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity)$/;

/**
 * An array or object of a lossless tree kept as its JSON text. A large request body's containers
 * are left so (apps/server's parse-json-chunks.ts): a table row is digested and stored straight
 * from its text (natively, @weft/json-native, when built), with no tree built for it. The text is
 * valid JSON, checked by whoever made the node; `tree()` parses it once, for whoever looks inside.
 */
export class JsonText {
  private parsed: JsonNode | undefined;
  /**
   * Weave's digest of the text and its canonical size (digest.ts valueDigest), when computed
   * ahead: a large body's table rows are, on the digest thread, while the rest of the body is read
   * (digest-thread.ts digestRowsAhead).
   */
  digested: { digest: string; sizeBytes: number } | undefined;
  /**
   * The text as @weft/store keeps it (minified, keys and number lexemes as sent: json-native's
   * storedJsonOfText), when whoever read the text made it: the body reader checks a table row
   * that way instead of parsing it.
   */
  stored: string | undefined;

  constructor(readonly text: string) {}

  get isObject(): boolean {
    return this.text.charCodeAt(0) === 0x7b;
  }

  tree(): JsonNode {
    return (this.parsed ??= parseLossless(this.text));
  }
}

export class JsonNumber {
  /**
   * `isFloat` is optional so hand-built numbers are validated and classified;
   * the parser passes it because it has already scanned the lexeme.
   */
  constructor(
    readonly lexeme: string,
    readonly isFloat: boolean = JsonNumber.classify(lexeme),
  ) {}

  toNumber(): number {
    return Number(this.lexeme);
  }

  private static classify(lexeme: string): boolean {
    if (!VALID_NUMBER.test(lexeme)) throw new TypeError(`Not a JSON number lexeme: ${JSON.stringify(lexeme)}`);
    return FLOAT_LEXEME.test(lexeme);
  }
}

/**
 * Nesting limit for parsing and dumping. Python's own recursion limit (1000)
 * stops Weave well before this; the limit exists so hostile or cyclic input
 * gives a clear error instead of a stack overflow.
 */
export const JSON_MAX_DEPTH = 2000;

export class JsonParseError extends SyntaxError {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`Invalid JSON at position ${position}: ${message}`);
    this.name = 'JsonParseError';
  }
}

/**
 * Objects whose prototype chain lacks Object.prototype, so `__proto__` and
 * `constructor` keys are plain own properties. Unlike Object.create(null),
 * instances of a constructor keep V8's fast hidden-class layout instead of
 * dictionary mode, which measured faster for both parsing and dumping.
 */
const NullProtoObject = function NullProtoObject() {} as unknown as new () => object;
NullProtoObject.prototype = Object.create(null) as object;

/** An empty object of the lossless tree (for parsers that build the tree piece by piece). */
export function newJsonObject(): JsonObject {
  return new NullProtoObject() as JsonObject;
}

/** A number of the lossless tree from a lexeme of JSON's grammar. */
export function jsonNumberOf(lexeme: string): JsonNumber {
  return new JsonNumber(lexeme, FLOAT_LEXEME.test(lexeme));
}

// Parser state lives at module scope: parsing is synchronous and never
// re-entered, and module-level variables are the fastest thing V8 offers here.
let src = '';
let pos = 0;

export function parseLossless(text: string): JsonNode {
  src = text;
  pos = 0;
  try {
    skipWs();
    const value = parseValue(0);
    skipWs();
    if (pos < src.length) fail('unexpected data after the JSON value');
    return value;
  } finally {
    src = ''; // do not pin a possibly huge request body in memory
  }
}

function fail(message: string, at = pos): never {
  throw new JsonParseError(message, at);
}

function skipWs(): void {
  for (;;) {
    const c = src.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return;
  }
}

function parseValue(depth: number): JsonNode {
  const c = src.charCodeAt(pos);
  switch (c) {
    case 0x22: // "
      return parseString();
    case 0x7b: // {
      return parseObject(depth + 1);
    case 0x5b: // [
      return parseArray(depth + 1);
    case 0x74: // t
      return literal('true', true);
    case 0x66: // f
      return literal('false', false);
    case 0x6e: // n
      return literal('null', null);
    case 0x4e: // N
      return literal('NaN', new JsonNumber('NaN', true));
    case 0x49: // I
      return literal('Infinity', new JsonNumber('Infinity', true));
    default:
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return parseNumber();
      if (pos >= src.length) fail('unexpected end of input');
      return fail(`unexpected character ${JSON.stringify(src[pos])}`);
  }
}

function literal<T extends JsonNode>(word: string, value: T): T {
  if (!src.startsWith(word, pos)) fail(`expected ${word}`);
  pos += word.length;
  return value;
}

function parseObject(depth: number): JsonObject {
  if (depth > JSON_MAX_DEPTH) fail(`nesting deeper than ${JSON_MAX_DEPTH}`);
  const obj = new NullProtoObject() as JsonObject;
  pos++; // {
  skipWs();
  if (src.charCodeAt(pos) === 0x7d) {
    pos++;
    return obj;
  }
  for (;;) {
    if (src.charCodeAt(pos) !== 0x22) fail('expected a string key');
    const key = parseString();
    skipWs();
    if (src.charCodeAt(pos) !== 0x3a) fail("expected ':' after key");
    pos++;
    skipWs();
    obj[key] = parseValue(depth);
    skipWs();
    const c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      skipWs();
    } else if (c === 0x7d) {
      pos++;
      return obj;
    } else {
      fail("expected ',' or '}' in object");
    }
  }
}

function parseArray(depth: number): JsonNode[] {
  if (depth > JSON_MAX_DEPTH) fail(`nesting deeper than ${JSON_MAX_DEPTH}`);
  const arr: JsonNode[] = [];
  pos++; // [
  skipWs();
  if (src.charCodeAt(pos) === 0x5d) {
    pos++;
    return arr;
  }
  for (;;) {
    arr.push(parseValue(depth));
    skipWs();
    const c = src.charCodeAt(pos);
    if (c === 0x2c) {
      pos++;
      skipWs();
    } else if (c === 0x5d) {
      pos++;
      return arr;
    } else {
      fail("expected ',' or ']' in array");
    }
  }
}

function parseString(): string {
  const start = ++pos; // skip opening quote
  const len = src.length;
  // Fast path: most strings have no escapes, so they are a single slice.
  while (pos < len) {
    const c = src.charCodeAt(pos);
    if (c === 0x22) return src.slice(start, pos++);
    if (c === 0x5c) return parseEscapedString(start);
    if (c < 0x20) fail('raw control character in string');
    pos++;
  }
  return fail('unterminated string', start - 1);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Slow path, entered at the first backslash; `start` is the first content char. */
function parseEscapedString(start: number): string {
  let out = '';
  let runStart = start;
  const len = src.length;
  while (pos < len) {
    const c = src.charCodeAt(pos);
    if (c === 0x22) {
      out += src.slice(runStart, pos++);
      return out;
    }
    if (c < 0x20) fail('raw control character in string');
    if (c !== 0x5c) {
      pos++;
      continue;
    }
    out += src.slice(runStart, pos);
    const e = src[pos + 1];
    if (e === 'u') {
      const hex = src.slice(pos + 2, pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('invalid \\u escape');
      // Lone surrogates are kept, as Python does; they are re-escaped on output.
      out += String.fromCharCode(parseInt(hex, 16));
      pos += 6;
    } else {
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
      if (simple === undefined) fail('invalid escape sequence');
      out += simple;
      pos += 2;
    }
    runStart = pos;
  }
  return fail('unterminated string', start - 1);
}

function parseNumber(): JsonNumber {
  const start = pos;
  let isFloat = false;
  if (src.charCodeAt(pos) === 0x2d) {
    pos++;
    if (src.charCodeAt(pos) === 0x49) return literal('Infinity', new JsonNumber('-Infinity', true));
  }
  const first = src.charCodeAt(pos);
  if (first === 0x30) {
    pos++; // a leading zero stands alone: "01" is not JSON
  } else if (first >= 0x31 && first <= 0x39) {
    pos = skipDigits(pos + 1);
  } else {
    fail('expected a digit');
  }
  if (src.charCodeAt(pos) === 0x2e) {
    isFloat = true;
    const after = skipDigits(pos + 1);
    if (after === pos + 1) fail("expected a digit after '.'", after);
    pos = after;
  }
  const e = src.charCodeAt(pos);
  if (e === 0x65 || e === 0x45) {
    isFloat = true;
    pos++;
    const sign = src.charCodeAt(pos);
    if (sign === 0x2b || sign === 0x2d) pos++;
    const after = skipDigits(pos);
    if (after === pos) fail('expected a digit in exponent');
    pos = after;
  }
  return new JsonNumber(src.slice(start, pos), isFloat);
}

function skipDigits(i: number): number {
  for (;;) {
    const c = src.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) i++;
    else return i;
  }
}
