// Reads a parsed YAML document node by node (not through toJS) so every problem can name the line
// and column it comes from. Each reader reports what it finds and returns a harmless fallback, so
// one pass lists every mistake in the file.
import { decimalFromNumberLexeme, formatDecimal, isPlainDecimalString, parseDecimal } from '@weft/core';
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Scalar } from 'yaml';

export class YamlReader {
  private readonly found: { offset: number; order: number; text: string }[] = [];

  constructor(
    private readonly source: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** Records `path: message` at the node's position (the document's start when there is no node). */
  report(node: Node | null | undefined, path: string, message: string): void {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = this.lines.linePos(offset);
    this.found.push({ offset, order: this.found.length, text: `${this.source}:${Math.max(line, 1)}:${col}: ${path}: ${message}` });
  }

  /** How many problems so far (readers compare counts to tell whether their part was valid). */
  get count(): number {
    return this.found.length;
  }

  /** Every problem, in file order. */
  get problems(): string[] {
    return [...this.found].sort((a, b) => a.offset - b.offset || a.order - b.order).map((p) => p.text);
  }

  /** Follows `*alias` references to the anchored node. */
  resolve(node: unknown): Node | null {
    if (isAlias(node)) return (node.resolve(this.doc) as Node | undefined) ?? null;
    return (node as Node | null | undefined) ?? null;
  }

  /**
   * The entries of a mapping, keyed by their (string) keys; keys outside `known` are reported as
   * unknown so a typo never passes silently. Returns undefined (reported) when not a mapping.
   */
  map(node: Node | null, path: string, known?: ReadonlySet<string>): Fields | undefined {
    if (!isMap(node)) {
      this.report(node, path, `expected a mapping, got ${describe(node)}`);
      return undefined;
    }
    const fields = new Fields(path, node);
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string' || key === '') {
        this.report(keyNode, path, `keys must be non-empty strings, got ${describe(keyNode)}`);
        continue;
      }
      if (known && !known.has(key)) {
        this.report(keyNode, `${join(path, key)}`, `unknown key (expected one of ${[...known].join(', ')})`);
        continue;
      }
      fields.entries.set(key, { key: keyNode, value: this.resolve(pair.value) });
    }
    return fields;
  }

  /** The items of a sequence; undefined (reported) when not a sequence. */
  seq(node: Node | null, path: string): (Node | null)[] | undefined {
    if (!isSeq(node)) {
      this.report(node, path, `expected a list, got ${describe(node)}`);
      return undefined;
    }
    return node.items.map((item) => this.resolve(item));
  }

  string(node: Node | null, path: string): string | undefined {
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'string') this.report(node, path, `expected a string, got ${describe(node)}`);
    else if (value.trim() === '') this.report(node, path, 'must not be empty');
    else return value;
    return undefined;
  }

  /** An integer within [min, Number.MAX_SAFE_INTEGER]. */
  integer(node: Node | null, path: string, min: number): number | undefined {
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      this.report(node, path, `expected an integer ≥ ${min}, got ${describe(node)}`);
      return undefined;
    }
    return value;
  }

  boolean(node: Node | null, path: string): boolean | undefined {
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'boolean') {
      this.report(node, path, `expected true or false, got ${describe(node)}`);
      return undefined;
    }
    return value;
  }

  /**
   * A non-negative exact decimal, canonical ("0.00000022"). Accepts a quoted plain decimal or an
   * unquoted number, read from its source text so no digit goes through a float.
   */
  decimal(node: Node | null, path: string): string | undefined {
    if (isScalar(node)) {
      const text = lexeme(node);
      let digits: string | undefined;
      if (typeof node.value === 'string' && isPlainDecimalString(node.value)) digits = formatDecimal(parseDecimal(node.value));
      else if (typeof node.value === 'number' && text !== undefined) {
        try {
          digits = formatDecimal(decimalFromNumberLexeme(text));
        } catch {
          digits = undefined;
        }
      }
      if (digits !== undefined) {
        if (!digits.startsWith('-')) return digits;
        this.report(node, path, `${describe(node)} must not be negative`);
        return undefined;
      }
    }
    this.report(node, path, `expected a decimal number such as 0.00000022, got ${describe(node)}`);
    return undefined;
  }

  /** A list of distinct non-empty strings, each optionally checked by `accept` (message when refused). */
  stringList(node: Node | null, path: string, accept?: (s: string) => string | undefined): string[] | undefined {
    const items = this.seq(node, path);
    if (!items) return undefined;
    const out: string[] = [];
    items.forEach((item, i) => {
      const at = `${path}[${i}]`;
      const s = this.string(item, at);
      if (s === undefined) return;
      const refusal = accept?.(s);
      if (refusal !== undefined) this.report(item, at, refusal);
      else if (out.includes(s)) this.report(item, at, `duplicate entry ${JSON.stringify(s)}`);
      else out.push(s);
    });
    return out;
  }
}

/** The checked entries of one mapping. */
export class Fields {
  readonly entries = new Map<string, { key: Node | null; value: Node | null }>();

  constructor(
    readonly path: string,
    readonly node: Node,
  ) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value node of `key`, or undefined when the key is absent. */
  get(key: string): Node | null | undefined {
    const entry = this.entries.get(key);
    return entry === undefined ? undefined : entry.value;
  }

  at(key: string): string {
    return join(this.path, key);
  }
}

export function join(path: string, key: string): string {
  const segment = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return path === '' ? segment : /^[A-Za-z_]/.test(segment) ? `${path}.${segment}` : `${path}[${segment}]`;
}

/** The scalar as written (numbers keep every digit). */
function lexeme(node: Scalar): string | undefined {
  const source = (node as Scalar & { source?: unknown }).source;
  return typeof source === 'string' ? source.trim() : undefined;
}

function describe(node: Node | null | undefined): string {
  if (node === null || node === undefined) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return 'null';
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'number') return `number ${lexeme(node) ?? String(value)}`;
    if (typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${value}`;
    return typeof value;
  }
  return 'an unsupported node';
}
