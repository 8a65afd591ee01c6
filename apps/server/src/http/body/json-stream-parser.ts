// An incremental JSON parser for bodies too large to hold whole (trajectory logs). Text arrives in
// chunks cut anywhere (callers decode bytes with a streaming TextDecoder, so multi-byte characters
// are already whole). Completed values at `detach` paths go to `onValue` and are NOT kept in their
// parent, so only the "spine" of the document plus one detached value is ever in memory.
//
// Containers at `raw` paths are not assembled piece by piece: their text is only scanned for
// strings and brackets (to find the end) and then handed to JSON.parse, which is several times
// faster than a JS state machine and checks everything the scan skipped. Scalars (and keys) are
// finished with JSON.parse too, so escapes and number syntax follow JSON.parse exactly.

export type PathKey = string | number;

export interface JsonStreamOptions {
  /** Completed values here go to onValue instead of their parent. */
  detach(path: readonly PathKey[]): boolean;
  /** Containers here are parsed in one piece (by JSON.parse, or `build.raw`). */
  raw(path: readonly PathKey[]): boolean;
  onValue(path: readonly PathKey[], value: unknown): void;
  /** Deepest nesting of containers accepted; deeper input is an error, not a stack overflow. */
  maxDepth: number;
  /**
   * Sees the JSON text of every number, raw container and string with escapes (in pieces, when
   * long) before it is parsed. (A string without escapes is its own value: nothing to check.)
   */
  inspect?(text: string): void;
  /**
   * A raw container longer than this is parsed piece by piece after all (default: no limit), so
   * that no single step's cost grows with the body.
   */
  maxRawChars?: number;
  /**
   * Finds the end of a raw container faster than the parser's own loop (the native one of
   * @weft/json-native); same contract as `NativeJson.scanContainer`.
   */
  scanContainer?: (text: string, state: Int32Array, maxDepth: number) => number;
  /** Longest number accepted (default: no limit). */
  maxNumberChars?: number;
  /** How values are made (default: as JSON.parse makes them). */
  build?: ValueBuilder;
}

/** The value representation: JSON.parse's, or another tree (Weave's lossless one keeps number lexemes). */
export interface ValueBuilder {
  object(): Record<string, unknown>;
  /** A number, from its lexeme (already checked against JSON's grammar). */
  number(lexeme: string): unknown;
  /** A raw container's value, from its text; `path` is where it sits in the body. */
  raw(text: string, path: readonly PathKey[]): unknown;
}

const PLAIN: ValueBuilder = {
  object: () => ({}),
  number: (lexeme) => Number(lexeme),
  raw: (text) => JSON.parse(text) as unknown,
};

export class JsonSyntaxError extends Error {}

/** Well-formed input past a limit of the parser (nesting depth, scalar length). */
export class JsonLimitError extends JsonSyntaxError {
  constructor(
    message: string,
    readonly limit: 'depth' | 'number_length',
  ) {
    super(message);
  }
}

/**
 * A string longer than this is decoded in pieces of about this size as it arrives, and its value
 * is the concatenation of the pieces (a rope: V8 copies nothing until it must), so no single step
 * handles a whole 64 MB string.
 */
const STRING_PIECE_CHARS = 256 * 1024;

/**
 * A raw container still open after this many characters goes to `scanContainer`, if given: only
 * the smallest ones are scanned in JavaScript, which is slower per character than a call is.
 */
const SCAN_IN_JS_CHARS = 64;
/** Characters handed to `scanContainer` by its first call for a container, and at most per call. */
const SCAN_FIRST_WINDOW_CHARS = 1024;
const SCAN_WINDOW_CHARS = 256 * 1024;

type Mode = 'value' | 'valueOrEnd' | 'keyOrEnd' | 'key' | 'colon' | 'after' | 'string' | 'number' | 'literal' | 'raw' | 'done';

interface Frame {
  container: Record<string, unknown> | unknown[];
  key: string | undefined;
}

const WS = /[^ \t\n\r]/g;
const STRING_END = /["\\]/g;
const NUMBER_CHARS = /[^0-9eE+\-.]/g;
const LETTERS = /[^a-z]/g;
// eslint-disable-next-line no-control-regex -- JSON forbids raw control characters in strings
const CONTROL = /[\u0000-\u001f]/;
/** RFC 8259's number grammar (Number() alone would take `1.`, `+1`, `0x10`). */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const HIGH_SURROGATE_ESCAPE = /^\\u[dD][89abAB][0-9a-fA-F]{2}$/;

export class JsonStreamParser {
  private mode: Mode = 'value';
  private readonly frames: Frame[] = [];
  private readonly path: PathKey[] = [];
  /** Text of the token (string, number, literal, raw container) being read. */
  private parts: string[] = [];
  private partsChars = 0;
  /** The decoded pieces of the long string being read. */
  private decoded: string[] = [];
  /** Where (in partsChars) the string's last two escapes start, or -1. */
  private lastEscapeAt = -1;
  private prevEscapeAt = -1;
  private stringIsKey = false;
  private escaped = false;
  private inRawString = false;
  private rawDepth = 0;
  private rawChars = 0;
  /** Where the raw container being read starts in the whole text. */
  private rawStartAt = 0;
  /** The container about to be read again is not read raw (see scanRaw). */
  private replaying = false;
  private offset = 0;
  /** scanContainer's state: [inString, escaped, depth]. */
  private readonly scanState = new Int32Array(3);

  private readonly build: ValueBuilder;

  constructor(private readonly opts: JsonStreamOptions) {
    this.build = opts.build ?? PLAIN;
  }

  write(text: string): void {
    let i = 0;
    const n = text.length;
    // Not `+=` at the end: a replayed raw container (scanRaw) moves the offset back meanwhile.
    const base = this.offset;
    while (i < n) {
      switch (this.mode) {
        case 'string': {
          i = this.scanString(text, i);
          break;
        }
        case 'number':
        case 'literal': {
          const re = this.mode === 'number' ? NUMBER_CHARS : LETTERS;
          re.lastIndex = i;
          const end = re.exec(text)?.index ?? n;
          this.parts.push(text.slice(i, end));
          this.partsChars += end - i;
          // No literal is longer than `false`; a number past the limit is refused before it is whole.
          if (this.mode === 'literal' && this.partsChars > 5) this.fail(`Unexpected token '${this.parts.join('').slice(0, 8)}'`, end);
          if (this.opts.maxNumberChars !== undefined && this.partsChars > this.opts.maxNumberChars) {
            throw new JsonLimitError(`A number longer than ${this.opts.maxNumberChars} characters is refused`, 'number_length');
          }
          i = end;
          if (end < n) this.finishScalar();
          break;
        }
        case 'raw': {
          i = this.scanRaw(text, i);
          break;
        }
        default: {
          const c = text.charCodeAt(i);
          // Dense JSON has no whitespace between tokens: a regex call per token would dominate.
          if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
            WS.lastIndex = i;
            const m = WS.exec(text);
            if (!m) {
              i = n;
              break;
            }
            i = m.index;
          }
          this.structural(text[i]!, i);
          i += 1;
        }
      }
    }
    this.offset = base + n;
  }

  /** Call after the last chunk: fails unless exactly one complete value was read. */
  end(): void {
    if (this.mode === 'number' || this.mode === 'literal') this.finishScalar();
    if (this.mode !== 'done') this.fail('Unexpected end of JSON input');
  }

  private fail(message: string, at?: number): never {
    throw new JsonSyntaxError(at === undefined ? message : `${message} at position ${this.offset + at}`);
  }

  private structural(c: string, at: number): void {
    switch (this.mode) {
      case 'value':
      case 'valueOrEnd':
        if (c === ']' && this.mode === 'valueOrEnd') return this.close(true);
        return this.startValue(c, at);
      case 'keyOrEnd':
      case 'key':
        if (c === '}' && this.mode === 'keyOrEnd') return this.close(false);
        if (c !== '"') this.fail(`Expected a property name, found '${c}'`, at);
        this.stringIsKey = true;
        this.escaped = false;
        this.partsChars = 0;
        this.lastEscapeAt = this.prevEscapeAt = -1;
        this.mode = 'string';
        return;
      case 'colon':
        if (c !== ':') this.fail(`Expected ':', found '${c}'`, at);
        this.mode = 'value';
        return;
      case 'after': {
        const top = this.frames[this.frames.length - 1];
        if (!top) this.fail(`Unexpected non-whitespace character '${c}' after JSON`, at);
        const isArray = Array.isArray(top.container);
        if (c === ',') {
          if (isArray) this.path[this.path.length - 1] = (this.path[this.path.length - 1] as number) + 1;
          this.mode = isArray ? 'value' : 'key';
          return;
        }
        if (c === (isArray ? ']' : '}')) return this.close(isArray);
        return this.fail(`Expected ',' or '${isArray ? ']' : '}'}', found '${c}'`, at);
      }
      case 'done':
        return this.fail(`Unexpected non-whitespace character '${c}' after JSON`, at);
    }
  }

  private startValue(c: string, at: number): void {
    if (c === '{' || c === '[') {
      if (this.frames.length >= this.opts.maxDepth)
        throw new JsonLimitError(`Nesting deeper than ${this.opts.maxDepth} levels is refused`, 'depth');
      const replaying = this.replaying;
      this.replaying = false;
      if (this.frames.length > 0 && !replaying && this.opts.raw(this.path)) {
        this.rawStartAt = this.offset + at;
        this.rawChars = 1;
        this.parts = [c];
        this.rawDepth = 1;
        this.inRawString = false;
        this.escaped = false;
        this.mode = 'raw';
        return;
      }
      const isArray = c === '[';
      this.frames.push({ container: isArray ? [] : this.build.object(), key: undefined });
      if (isArray) this.path.push(0);
      this.mode = isArray ? 'valueOrEnd' : 'keyOrEnd';
      return;
    }
    this.parts = [c];
    this.partsChars = 1;
    if (c === '"') {
      this.parts = [];
      this.partsChars = 0;
      this.lastEscapeAt = this.prevEscapeAt = -1;
      this.stringIsKey = false;
      this.escaped = false;
      this.mode = 'string';
    } else if (c === '-' || (c >= '0' && c <= '9')) this.mode = 'number';
    else if (c >= 'a' && c <= 'z') this.mode = 'literal';
    else this.fail(`Unexpected token '${c}'`, at);
  }

  private close(isArray: boolean): void {
    const frame = this.frames.pop()!;
    if (isArray) this.path.pop();
    this.completeValue(frame.container);
  }

  /** A finished value at the current path: detach it, attach it to its parent, or end the document. */
  private completeValue(value: unknown): void {
    const parent = this.frames[this.frames.length - 1];
    if (!parent || this.opts.detach(this.path)) this.opts.onValue(this.path, value);
    if (!parent) {
      this.mode = 'done';
      return;
    }
    if (!this.opts.detach(this.path)) {
      if (Array.isArray(parent.container)) parent.container.push(value);
      else setOwn(parent.container, parent.key!, value);
    }
    if (!Array.isArray(parent.container)) this.path.pop();
    this.mode = 'after';
  }

  private scanString(text: string, i: number): number {
    const n = text.length;
    while (i < n) {
      if (this.escaped) {
        this.escaped = false;
        this.parts.push(text[i]!);
        this.partsChars += 1;
        i += 1;
        continue;
      }
      STRING_END.lastIndex = i;
      const m = STRING_END.exec(text);
      const end = m ? m.index : n;
      this.parts.push(text.slice(i, end));
      this.partsChars += end - i;
      if (!m) break;
      if (m[0] === '\\') {
        this.prevEscapeAt = this.lastEscapeAt;
        this.lastEscapeAt = this.partsChars;
        this.parts.push('\\');
        this.partsChars += 1;
        this.escaped = true;
        i = end + 1;
        continue;
      }
      this.finishString(end);
      return end + 1;
    }
    // The chunk ended inside the string.
    if (this.partsChars > STRING_PIECE_CHARS) this.decodePiece(n);
    return n;
  }

  /**
   * Decodes what is read of a long string so far, but for an escape that may be incomplete or the
   * high half of a surrogate pair (kept for the next piece, so `inspect` sees pairs whole).
   */
  private decodePiece(at: number): void {
    const text = this.parts.join('');
    let cut = text.length;
    // An escape within the last 6 characters may be unfinished: it waits for the next piece, and
    // so does a high surrogate escape just before it, so that `inspect` sees a pair whole.
    if (this.lastEscapeAt >= cut - 6) {
      cut = this.lastEscapeAt;
      if (this.prevEscapeAt === cut - 6 && HIGH_SURROGATE_ESCAPE.test(text.slice(cut - 6, cut))) cut = this.prevEscapeAt;
    }
    this.decoded.push(this.decodeString(text.slice(0, cut), at));
    this.parts = [text.slice(cut)];
    this.partsChars = text.length - cut;
    this.lastEscapeAt -= cut;
    this.prevEscapeAt -= cut;
  }

  private decodeString(content: string, at: number): string {
    const text = `"${content}"`;
    this.opts.inspect?.(text);
    try {
      return JSON.parse(text) as string;
    } catch (err) {
      return this.fail(`Bad string: ${(err as Error).message}`, at);
    }
  }

  private finishString(at: number): void {
    const content = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    // Without escapes the text is the value (JSON.parse would only check for control characters).
    let value: string;
    if (this.lastEscapeAt === -1 && this.decoded.length === 0) {
      if (CONTROL.test(content)) this.fail('Bad control character in string literal', at);
      value = content;
    } else value = this.decodeString(content, at);
    if (this.decoded.length > 0) {
      // `+` makes a rope: joining would copy the whole string at once.
      let rope = '';
      for (const piece of this.decoded) rope += piece;
      value = rope + value;
      this.decoded = [];
    }
    this.parts = [];
    this.partsChars = 0;
    if (this.stringIsKey) {
      this.frames[this.frames.length - 1]!.key = value;
      this.path.push(value);
      this.mode = 'colon';
    } else this.completeValue(value);
  }

  private finishScalar(): void {
    const token = this.parts.join('');
    this.parts = [];
    this.partsChars = 0;
    this.opts.inspect?.(token);
    let value: unknown;
    if (token === 'true') value = true;
    else if (token === 'false') value = false;
    else if (token === 'null') value = null;
    else if (NUMBER.test(token)) value = this.build.number(token);
    else return this.fail(`Bad token '${token.slice(0, 32)}'`);
    this.completeValue(value);
  }

  /**
   * Finds the end of a raw container: only strings (for brackets inside them) and brackets matter.
   * A charCodeAt loop: on dense JSON (logprobs) it beats a regex search per special character. A
   * container still open after SCAN_IN_JS_CHARS is scanned by `scanContainer` when one is given
   * (natively, much faster than in JavaScript), a window at a time so each character is copied to it once.
   */
  private scanRaw(text: string, i: number): number {
    const n = text.length;
    const start = i;
    let inString = this.inRawString;
    let escaped = this.escaped;
    let depth = this.rawDepth;
    const native = this.opts.scanContainer;
    const inJs = native ? Math.min(n, i + SCAN_IN_JS_CHARS) : n;
    for (; i < inJs; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        depth += 1;
        if (this.frames.length + depth > this.opts.maxDepth) this.fail(`Nesting deeper than ${this.opts.maxDepth}`, i);
      } else if ((c === 0x7d || c === 0x5d) && --depth === 0) return this.endRaw(text, start, i);
    }
    if (native && i < n) {
      const state = this.scanState;
      state[0] = inString ? 1 : 0;
      state[1] = escaped ? 1 : 0;
      state[2] = depth;
      // Windows grow from small ones: a table row's end is found without copying the rest of the piece.
      for (let at = i, window = SCAN_FIRST_WINDOW_CHARS; at < n; at += window, window = Math.min(window * 4, SCAN_WINDOW_CHARS)) {
        const end = native(text.slice(at, at + window), state, this.opts.maxDepth - this.frames.length);
        if (end >= 0) return this.endRaw(text, start, at + end);
        if (end < -1) this.fail(`Nesting deeper than ${this.opts.maxDepth}`, at - end - 2);
      }
      inString = state[0] === 1;
      escaped = state[1] === 1;
      depth = state[2]!;
    }
    this.inRawString = inString;
    this.escaped = escaped;
    this.rawDepth = depth;
    this.parts.push(text.slice(start, n));
    this.rawChars += n - start;
    if (this.opts.maxRawChars !== undefined && this.rawChars > this.opts.maxRawChars) this.replayRaw();
    return n;
  }

  /** The raw container ends at text[end]: parses it and completes it. */
  private endRaw(text: string, start: number, end: number): number {
    this.parts.push(text.slice(start, end + 1));
    const source = this.parts.join('');
    this.parts = [];
    this.rawDepth = 0;
    // A chunk may have ended inside an escape of this container: none of that state is left.
    this.escaped = false;
    this.inRawString = false;
    this.opts.inspect?.(source);
    let value: unknown;
    try {
      value = this.build.raw(source, this.path);
    } catch (err) {
      return this.fail((err as Error).message.replace(/ at position \d+.*$/, ''), end);
    }
    this.completeValue(value);
    return end + 1;
  }

  /**
   * A raw container past maxRawChars is read again piece by piece (its children may be raw), so
   * no single JSON.parse call grows with the body: what was scanned of it is written again.
   */
  private replayRaw(): void {
    const text = this.parts.join('');
    this.parts = [];
    this.rawDepth = 0;
    this.rawChars = 0;
    this.inRawString = false;
    this.escaped = false;
    this.mode = 'value';
    this.replaying = true;
    this.offset = this.rawStartAt;
    this.write(text);
  }
}

/** Like JSON.parse: "__proto__" is an own key, never the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
