// OTLP attribute values as JSON, exactly or not at all: a value JSON cannot hold as sent (NaN, an
// infinity, an integer beyond 2^53 that a JS number would round) refuses its span instead of being
// changed. Bytes become base64 text (documented in the spec): JSON has no bytes.
import type { AnyValue, KeyValue } from './proto/opentelemetry/proto/common/v1/common.generated.ts';

/** Why one span cannot be stored; the rest of its batch is (OTLP's partial success). */
export class SpanRefusal extends Error {}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** `where` and `key` name the value in a refusal (joined only then: most values are fine). */
export function anyValueToJson(value: AnyValue | undefined, where: string, key?: string): JsonValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const n = Number(value.intValue);
    if (!Number.isSafeInteger(n))
      throw new SpanRefusal(`${at(where, key)}: the integer ${value.intValue} is beyond ±2^53 and cannot be stored exactly`);
    return n;
  }
  if (value.doubleValue !== undefined) {
    if (!Number.isFinite(value.doubleValue)) throw new SpanRefusal(`${at(where, key)}: ${value.doubleValue} cannot be stored as JSON`);
    return value.doubleValue;
  }
  if (value.arrayValue !== undefined) return value.arrayValue.values.map((v, i) => anyValueToJson(v, `${at(where, key)}[${i}]`));
  if (value.kvlistValue !== undefined) return keyValuesToJson(value.kvlistValue.values, at(where, key));
  if (value.bytesValue !== undefined) return Buffer.from(value.bytesValue).toString('base64');
  return null; // an empty AnyValue: OTLP's "no value"
}

/**
 * KeyValues as one object (keys as sent, dots and all). OTLP says keys are unique; if one repeats,
 * the last value wins, as in every OTel SDK's attribute map.
 */
export function keyValuesToJson(list: readonly KeyValue[], where: string): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const kv of list) {
    setOwn(out, kv.key, anyValueToJson(kv.value, where, kv.key));
  }
  return out;
}

function at(where: string, key: string | undefined): string {
  return key === undefined ? where : `${where}.${key}`;
}

/** `target[key] = value`, where a key named "__proto__" stays a key (defineProperty only then: it is slow). */
export function setOwn(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function isJsonObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
