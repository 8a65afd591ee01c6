// What a reviewer fills in for one human-annotation scorer (Weave's AnnotationSpec object): its
// `field_schema` read into a field descriptor, a typed or picked value parsed and checked as the
// server's JSON-schema check will check it, and the number keys that pick a value (1..9, then 0
// for the tenth) for an enum's options, a boolean, or a whole-number scale within its bounds.
export type FieldValue = number | string | boolean;

export type FieldDescriptor =
  | {
      kind: 'number';
      integer: boolean;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      /** The whole values within bounds when there are at most ten: a scale the number keys pick from. */
      steps?: number[];
    }
  | { kind: 'enum'; options: FieldValue[] }
  | { kind: 'boolean' }
  | { kind: 'string'; minLength?: number; maxLength?: number }
  | { kind: 'unsupported'; reason: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const isScalar = (v: unknown): v is FieldValue => typeof v === 'string' || typeof v === 'boolean' || finite(v) !== undefined;

/** The schema's one type: `"number"`, or the one non-null entry of `["number", "null"]`. */
function typeOf(schema: Json): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return types.length === 1 && typeof types[0] === 'string' ? types[0] : undefined;
  }
  return undefined;
}

const MAX_STEPS = 10;

export function describeField(schema: unknown): FieldDescriptor {
  if (!isObject(schema)) return { kind: 'unsupported', reason: 'The field_schema is not an object.' };
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.filter((o) => o !== null);
    if (options.length === 0 || !options.every(isScalar)) {
      return { kind: 'unsupported', reason: 'Only enums of strings, numbers or booleans can be picked here.' };
    }
    return { kind: 'enum', options };
  }
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const integer = type === 'integer';
    const d: FieldDescriptor & { kind: 'number' } = { kind: 'number', integer };
    const bounds = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const;
    for (const bound of bounds) {
      const v = finite(schema[bound]);
      if (v !== undefined) d[bound] = v;
    }
    const low = d.minimum ?? (d.exclusiveMinimum === undefined ? undefined : Math.floor(d.exclusiveMinimum) + 1);
    const high = d.maximum ?? (d.exclusiveMaximum === undefined ? undefined : Math.ceil(d.exclusiveMaximum) - 1);
    // A scale only where every value of it is whole: a number field bounded by 0.5 and 2.5 is not one.
    if (low !== undefined && high !== undefined && Number.isInteger(low) && Number.isInteger(high) && high >= low) {
      if (high - low + 1 <= MAX_STEPS) d.steps = Array.from({ length: high - low + 1 }, (_, i) => low + i);
    }
    return d;
  }
  if (type === 'boolean') return { kind: 'boolean' };
  if (type === 'string') {
    const d: FieldDescriptor & { kind: 'string' } = { kind: 'string' };
    const min = finite(schema.minLength);
    const max = finite(schema.maxLength);
    if (min !== undefined) d.minLength = min;
    if (max !== undefined) d.maxLength = max;
    return d;
  }
  return { kind: 'unsupported', reason: `Fields of type ${JSON.stringify(schema.type ?? null)} cannot be filled in here.` };
}

export type Parsed = { ok: true; value: FieldValue | undefined } | { ok: false; error: string };

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A value as typed or picked (the form keeps text; a picked option is its `String()`), as the
 * server will take it. Blank is "not filled" (no feedback is written for it), not an error.
 */
export function parseValue(d: FieldDescriptor, raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: undefined };
  switch (d.kind) {
    case 'number': {
      const text = raw.trim();
      if (!NUMBER.test(text)) return { ok: false, error: 'Must be a number.' };
      const n = Number(text);
      if (d.integer && !Number.isInteger(n)) return { ok: false, error: 'Must be a whole number.' };
      if (d.minimum !== undefined && n < d.minimum) return { ok: false, error: `Must be at least ${d.minimum}.` };
      if (d.maximum !== undefined && n > d.maximum) return { ok: false, error: `Must be at most ${d.maximum}.` };
      if (d.exclusiveMinimum !== undefined && n <= d.exclusiveMinimum)
        return { ok: false, error: `Must be more than ${d.exclusiveMinimum}.` };
      if (d.exclusiveMaximum !== undefined && n >= d.exclusiveMaximum)
        return { ok: false, error: `Must be less than ${d.exclusiveMaximum}.` };
      return { ok: true, value: n };
    }
    case 'enum': {
      const option = d.options.find((o) => String(o) === raw);
      return option === undefined
        ? { ok: false, error: `Must be one of ${d.options.map(String).join(', ')}.` }
        : { ok: true, value: option };
    }
    case 'boolean':
      if (raw === 'true') return { ok: true, value: true };
      if (raw === 'false') return { ok: true, value: false };
      return { ok: false, error: 'Must be true or false.' };
    case 'string': {
      // JSON Schema counts characters as code points.
      const length = [...raw].length;
      if (d.maxLength !== undefined && length > d.maxLength)
        return { ok: false, error: `At most ${d.maxLength} characters (${length} now).` };
      if (d.minLength !== undefined && length < d.minLength) return { ok: false, error: `At least ${d.minLength} characters.` };
      return { ok: true, value: raw };
    }
    case 'unsupported':
      return { ok: false, error: d.reason };
  }
}

export interface KeyHint {
  key: string;
  value: FieldValue;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'];

/**
 * Which number key picks which value. A scale within 0..9 is picked by its own digits (key 4 is
 * 4 on a 1–5 scale); any other scale, an enum and a boolean by place (1 the first, 0 the tenth).
 */
export function keyHints(d: FieldDescriptor): KeyHint[] {
  const byPlace = (values: FieldValue[]) => values.slice(0, KEYS.length).map((value, i) => ({ key: KEYS[i]!, value }));
  switch (d.kind) {
    case 'enum':
      return byPlace(d.options);
    case 'boolean':
      return byPlace([true, false]);
    case 'number': {
      const steps = d.steps;
      if (!steps) return [];
      if (steps[0]! >= 0 && steps[steps.length - 1]! <= 9) return steps.map((value) => ({ key: String(value), value }));
      return byPlace(steps);
    }
    default:
      return [];
  }
}

/** The value a number key picks for the field, or undefined when that key picks nothing there. */
export function valueForKey(d: FieldDescriptor, key: string): FieldValue | undefined {
  return keyHints(d).find((h) => h.key === key)?.value;
}

/** `weave:///e/p/object/helpfulness:digest` → `helpfulness` (the name feedback types carry). */
export function specNameOf(ref: string): string | undefined {
  const match = /^weave:\/\/\/[^/]+\/[^/]+\/object\/([^:/]+)(?::[^/]*)?$/.exec(ref);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export interface Scorer {
  ref: string;
  /** The ref's object name: feedback is `wandb.annotation.<name>`, and the server checks the two agree. */
  name: string;
  description: string | undefined;
  field: FieldDescriptor;
}

/** A scorer from its ref and the value refs/read_batch answered for it. */
export function scorerOf(ref: string, val: unknown): Scorer {
  const v = isObject(val) ? val : {};
  const name = specNameOf(ref) ?? (typeof v.name === 'string' ? v.name : ref);
  const description = typeof v.description === 'string' && v.description !== '' ? v.description : undefined;
  const field: FieldDescriptor =
    v.field_schema === undefined
      ? { kind: 'unsupported', reason: `${ref} is not an annotation spec (it has no field_schema).` }
      : describeField(v.field_schema);
  return { ref, name, description, field };
}

/** The form's text for a stored value (the inverse of parseValue for what it accepts). */
export function rawOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
}
