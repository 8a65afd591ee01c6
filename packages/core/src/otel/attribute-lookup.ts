// Finding a convention's key among a span's attributes, as Weave does (attributes.py): the flat
// key first (`ai.prompt.messages`), else everything under it as a nested object (`ai.response` →
// `{text, finishReason, …}` from `ai.response.text`, `ai.response.finishReason`). Strings that
// look like JSON objects or arrays are parsed. Better than Weave: objects keyed 0..n-1 (OpenLLMetry's
// `gen_ai.prompt.0.role`, OpenInference's `llm.input_messages.0.message.content`) become arrays,
// and a key that is both a leaf and a prefix does not refuse the span.
import { isJsonObject as isObject, setOwn, type JsonValue } from './any-value.ts';

export class AttributeLookup {
  readonly #flat: Record<string, JsonValue>;
  readonly #keys: string[];
  /** Every proper prefix of a key (`a`, `a.b` for `a.b.c`): most lookups miss, and miss here. */
  readonly #prefixes = new Set<string>();

  constructor(flat: Record<string, JsonValue>) {
    this.#flat = flat;
    this.#keys = Object.keys(flat);
    for (const key of this.#keys) {
      for (let dot = key.indexOf('.'); dot !== -1; dot = key.indexOf('.', dot + 1)) this.#prefixes.add(key.slice(0, dot));
    }
  }

  /** The raw value of a flat key, as sent. */
  raw(key: string): JsonValue | undefined {
    return Object.hasOwn(this.#flat, key) ? this.#flat[key] : undefined;
  }

  /** The value of `key`, flat or nested, JSON strings parsed; undefined when absent or empty. */
  find(key: string): JsonValue | undefined {
    const flat = this.raw(key);
    if (flat !== undefined) return present(parseJsonText(flat));
    if (!this.#prefixes.has(key)) return undefined;
    const prefix = `${key}.`;
    let nested: { [k: string]: JsonValue } | undefined;
    for (const k of this.#keys) {
      if (!k.startsWith(prefix)) continue;
      nested ??= {};
      // A copy: the nesting below rewrites objects in place, and the raw values are also stored as sent.
      setPath(nested, k.slice(prefix.length).split('.'), parseJsonText(copyOf(this.#flat[k]!)));
    }
    return nested === undefined ? undefined : present(arraysFromIndexes(nested));
  }

  /** The first of `keys` present (Weave's "first truthy"), with the key it was found under. */
  first(keys: readonly string[]): [string, JsonValue] | undefined {
    for (const key of keys) {
      const value = this.find(key);
      if (value !== undefined) return [key, value];
    }
    return undefined;
  }
}

function copyOf(value: JsonValue): JsonValue {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** A string that looks like a JSON object or array, parsed; anything else as it is. */
export function parseJsonText(value: JsonValue): JsonValue {
  if (typeof value !== 'string') return value;
  const c = value.trimStart()[0];
  if (c !== '{' && c !== '[') return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

function present(value: JsonValue): JsonValue | undefined {
  if (value === null || value === '' || value === false) return undefined;
  if (Array.isArray(value)) return value.length > 0 ? value : undefined;
  if (typeof value === 'object') return Object.keys(value).length > 0 ? value : undefined;
  return value;
}

// Where a key is both a leaf and a prefix (`a` and `a.b`), the first one seen keeps the place; the
// other stays in the raw attributes kept with the call (nothing is lost, and no span is refused).
function setPath(target: { [k: string]: JsonValue }, parts: string[], value: JsonValue): void {
  let node = target;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    if (next === undefined) {
      const child: { [k: string]: JsonValue } = {};
      setOwn(node, part, child);
      node = child;
    } else if (isObject(next)) node = next;
    else return;
  }
  const last = parts[parts.length - 1]!;
  if (!Object.hasOwn(node, last)) setOwn(node, last, value);
}

function arraysFromIndexes(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(arraysFromIndexes);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  for (const k of keys) setOwn(value, k, arraysFromIndexes(value[k]!));
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => value[k]!);
  return value;
}
