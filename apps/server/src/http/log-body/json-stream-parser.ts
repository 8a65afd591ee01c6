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
  /** Containers here are parsed in one piece by JSON.parse. */
  raw(path: readonly PathKey[]): boolean;
  onValue(path: readonly PathKey[], value: unknown): void;
  /** Deepest nesting of containers accepted; deeper input is an error, not a stack overflow. */
  maxDepth: number;
  /** Sees the JSON text of every string, number and raw container before it is parsed. */
  inspect?(text: string): void;
}

export class JsonSyntaxError extends Error {}

type Mode = 'value' | 'valueOrEnd' | 'keyOrEnd' | 'key' | 'colon' | 'after' | 'string' | 'number' | 'literal' | 'raw' | 'done';

interface Frame {
  container: Record<string, unknown> | unknown[];
  key: string | undefined;
}

const WS = /[^ \t\n\r]/g;
const STRING_END = /["\\]/g;
const NUMBER_CHARS = /[^0-9eE+\-.]/g;
const LETTERS = /[^a-z]/g;

export class JsonStreamParser {
  private mode: Mode = 'value';
  private readonly frames: Frame[] = [];
  private readonly path: PathKey[] = [];
  /** Text of the token (string, number, literal, raw container) being read. */
  private parts: string[] = [];
  private stringIsKey = false;
  private escaped = false;
  private inRawString = false;
  private rawDepth = 0;
  private offset = 0;

  constructor(private readonly opts: JsonStreamOptions) {}

  write(text: string): void {
    let i = 0;
    const n = text.length;
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
          i = end;
          if (end < n) this.finishScalar();
          break;
        }
        case 'raw': {
          i = this.scanRaw(text, i);
          break;
        }
        default: {
          WS.lastIndex = i;
          const m = WS.exec(text);
          if (!m) {
            i = n;
            break;
          }
          i = m.index;
          this.structural(text[i]!, i);
          i += 1;
        }
      }
    }
    this.offset += n;
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
      if (this.frames.length >= this.opts.maxDepth) this.fail(`Nesting deeper than ${this.opts.maxDepth}`, at);
      if (this.frames.length > 0 && this.opts.raw(this.path)) {
        this.parts = [c];
        this.rawDepth = 1;
        this.inRawString = false;
        this.escaped = false;
        this.mode = 'raw';
        return;
      }
      const isArray = c === '[';
      this.frames.push({ container: isArray ? [] : {}, key: undefined });
      if (isArray) this.path.push(0);
      this.mode = isArray ? 'valueOrEnd' : 'keyOrEnd';
      return;
    }
    this.parts = [c];
    if (c === '"') {
      this.parts = [];
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
        i += 1;
        continue;
      }
      STRING_END.lastIndex = i;
      const m = STRING_END.exec(text);
      const end = m ? m.index : n;
      this.parts.push(text.slice(i, end));
      if (!m) return n;
      if (m[0] === '\\') {
        this.parts.push('\\');
        this.escaped = true;
        i = end + 1;
        continue;
      }
      this.finishString(end);
      return end + 1;
    }
    return n;
  }

  private finishString(at: number): void {
    let value: string;
    const text = `"${this.parts.join('')}"`;
    this.opts.inspect?.(text);
    try {
      value = JSON.parse(text) as string;
    } catch (err) {
      return this.fail(`Bad string: ${(err as Error).message}`, at);
    }
    this.parts = [];
    if (this.stringIsKey) {
      this.frames[this.frames.length - 1]!.key = value;
      this.path.push(value);
      this.mode = 'colon';
    } else this.completeValue(value);
  }

  private finishScalar(): void {
    const token = this.parts.join('');
    this.parts = [];
    this.opts.inspect?.(token);
    let value: unknown;
    try {
      value = JSON.parse(token);
    } catch {
      return this.fail(`Bad token '${token.slice(0, 32)}'`);
    }
    this.completeValue(value);
  }

  /**
   * Finds the end of a raw container: only strings (for brackets inside them) and brackets matter.
   * A charCodeAt loop: on dense JSON (logprobs) it beats a regex search per special character.
   */
  private scanRaw(text: string, i: number): number {
    const n = text.length;
    const start = i;
    let inString = this.inRawString;
    let escaped = this.escaped;
    let depth = this.rawDepth;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        depth += 1;
        if (this.frames.length + depth > this.opts.maxDepth) this.fail(`Nesting deeper than ${this.opts.maxDepth}`, i);
      } else if ((c === 0x7d || c === 0x5d) && --depth === 0) {
        this.parts.push(text.slice(start, i + 1));
        const source = this.parts.join('');
        this.parts = [];
        this.rawDepth = 0;
        this.opts.inspect?.(source);
        let value: unknown;
        try {
          value = JSON.parse(source);
        } catch (err) {
          return this.fail((err as Error).message.replace(/ at position \d+.*$/, ''), i);
        }
        this.completeValue(value);
        return i + 1;
      }
    }
    this.inRawString = inString;
    this.escaped = escaped;
    this.rawDepth = depth;
    this.parts.push(text.slice(start, n));
    return n;
  }
}

/** Like JSON.parse: "__proto__" is an own key, never the prototype. */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
