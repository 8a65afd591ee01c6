// OTLP attribute values as JSON, exactly or not at all: a value JSON cannot hold as sent (NaN, an
// infinity, an integer beyond 2^53 that a JS number would round) refuses its span instead of being
// changed. Bytes become base64 text (documented in the spec): JSON has no bytes.
import type { AnyValue, KeyValue } from './proto/opentelemetry/proto/common/v1/common.generated.ts';

/** Why one span cannot be stored; the rest of its batch is (OTLP's partial success). */
export class SpanRefusal extends Error {}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function anyValueToJson(value: AnyValue | undefined, where: string): JsonValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) {
    const n = Number(value.intValue);
    if (!Number.isSafeInteger(n))
      throw new SpanRefusal(`${where}: the integer ${value.intValue} is beyond ±2^53 and cannot be stored exactly`);
    return n;
  }
  if (value.doubleValue !== undefined) {
    if (!Number.isFinite(value.doubleValue)) throw new SpanRefusal(`${where}: ${value.doubleValue} cannot be stored as JSON`);
    return value.doubleValue;
  }
  if (value.arrayValue !== undefined) return value.arrayValue.values.map((v, i) => anyValueToJson(v, `${where}[${i}]`));
  if (value.kvlistValue !== undefined) return keyValuesToJson(value.kvlistValue.values, where);
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
    // defineProperty: a key named "__proto__" stays a key.
    Object.defineProperty(out, kv.key, {
      value: anyValueToJson(kv.value, `${where}.${kv.key}`),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
