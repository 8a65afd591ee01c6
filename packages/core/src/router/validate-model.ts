import { formatDecimal, isPlainDecimalString, parseDecimal } from '../decimal/index.ts';
import {
  checkKnownKeys,
  describeValue,
  isRecord,
  readPositiveInt,
  readRecord,
  readString,
  readStringList,
  type Report,
} from './field-checks.ts';
import type { Datacenter, ModelEntry, ModelPricing } from './model-entry.ts';
import { SAMPLING_PARAMETERS, SUPPORTED_FEATURES } from './model-enums.ts';

const WIRE_FIELDS = [
  'id',
  'name',
  'created',
  'input_modalities',
  'output_modalities',
  'context_length',
  'max_output_length',
  'pricing',
  'supported_sampling_parameters',
  'supported_features',
  'datacenters',
  'deprecation_date',
] as const;

/**
 * Catalogue-only fields: accepted in models.json, never sent on the wire.
 * Any other unknown key is an error, so add new internal fields here.
 */
export const INTERNAL_FIELDS = ['quantization'] as const;

const MODEL_FIELDS: ReadonlySet<string> = new Set([...WIRE_FIELDS, ...INTERNAL_FIELDS]);
const PRICE_FIELDS = ['prompt', 'completion', 'image', 'request', 'input_cache_read'] as const;
const PRICE_FIELD_SET: ReadonlySet<string> = new Set(PRICE_FIELDS);
const DATACENTER_FIELDS: ReadonlySet<string> = new Set(['country_code']);
const COUNTRY_CODE = /^[A-Z]{2}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Validates one raw catalogue record at `path` (e.g. "models[3]").
 * Reports every problem; returns the wire entry (internal fields
 * stripped, prices in canonical decimal form, keys in schema order) only
 * when the record is entirely valid.
 */
export function validateModel(raw: unknown, path: string, report: Report): ModelEntry | undefined {
  if (!isRecord(raw)) {
    report(path, `expected an object, got ${describeValue(raw)}`);
    return undefined;
  }
  let valid = true;
  const check: Report = (at, message) => {
    valid = false;
    report(at, message);
  };

  checkKnownKeys(raw, MODEL_FIELDS, path, check);
  const id = readString(raw, 'id', path, check);
  if (/\s/.test(id)) check(`${path}.id`, `${describeValue(id)} must not contain whitespace`);
  const name = readString(raw, 'name', path, check);
  const created = readPositiveInt(raw, 'created', path, check);
  const input_modalities = readStringList(raw, 'input_modalities', path, check, { nonEmpty: true });
  const output_modalities = readStringList(raw, 'output_modalities', path, check, { nonEmpty: true });
  const context_length = readPositiveInt(raw, 'context_length', path, check);
  const max_output_length = readPositiveInt(raw, 'max_output_length', path, check);
  if (context_length > 0 && max_output_length > context_length) {
    check(`${path}.max_output_length`, `${max_output_length} exceeds context_length ${context_length}`);
  }
  const pricing = readPricing(raw, path, check);
  const supported_sampling_parameters = readStringList(raw, 'supported_sampling_parameters', path, check, {
    allowed: SAMPLING_PARAMETERS,
  });
  const supported_features = readStringList(raw, 'supported_features', path, check, { allowed: SUPPORTED_FEATURES });
  const datacenters = readDatacenters(raw, path, check);
  const deprecation_date = readDeprecationDate(raw, path, check);
  if (raw.quantization !== undefined) readString(raw, 'quantization', path, check);

  if (!valid) return undefined;
  const entry: ModelEntry = {
    id,
    name,
    created,
    input_modalities,
    output_modalities,
    context_length,
    max_output_length,
    pricing,
    supported_sampling_parameters,
    supported_features,
    datacenters,
  };
  // Omitted rather than null/"" when unset: clients test for presence.
  if (deprecation_date !== undefined) entry.deprecation_date = deprecation_date;
  return entry;
}

function readPricing(raw: Record<string, unknown>, path: string, report: Report): ModelPricing {
  const obj = readRecord(raw, 'pricing', path, report);
  const at = `${path}.pricing`;
  if (isRecord(raw.pricing)) checkKnownKeys(obj, PRICE_FIELD_SET, at, report);
  const price = (key: (typeof PRICE_FIELDS)[number]): string => {
    const value = obj[key];
    if (value === undefined) {
      if (isRecord(raw.pricing)) report(`${at}.${key}`, 'is required');
      return '0';
    }
    if (typeof value !== 'string') {
      report(`${at}.${key}`, `expected a plain decimal string, got ${describeValue(value)}`);
      return '0';
    }
    if (!isPlainDecimalString(value)) {
      report(`${at}.${key}`, `${describeValue(value)} is not a plain decimal string`);
      return '0';
    }
    const d = parseDecimal(value);
    if (d.coefficient < 0n) {
      report(`${at}.${key}`, `${describeValue(value)} must not be negative`);
      return '0';
    }
    // Canonical form ("0.00000022", not "0.000000220") so equal prices
    // serialise identically and the ETag only changes when a price does.
    return formatDecimal(d);
  };
  return {
    prompt: price('prompt'),
    completion: price('completion'),
    image: price('image'),
    request: price('request'),
    input_cache_read: price('input_cache_read'),
  };
}

function readDatacenters(raw: Record<string, unknown>, path: string, report: Report): Datacenter[] {
  const value = raw.datacenters;
  const at = `${path}.datacenters`;
  if (value === undefined) {
    report(at, 'is required');
    return [];
  }
  if (!Array.isArray(value)) {
    report(at, `expected an array, got ${describeValue(value)}`);
    return [];
  }
  const seen = new Set<string>();
  const out: Datacenter[] = [];
  value.forEach((item: unknown, i) => {
    const itemAt = `${at}[${i}]`;
    if (!isRecord(item)) {
      report(itemAt, `expected an object, got ${describeValue(item)}`);
      return;
    }
    checkKnownKeys(item, DATACENTER_FIELDS, itemAt, report);
    const code = item.country_code;
    if (typeof code !== 'string' || !COUNTRY_CODE.test(code)) {
      report(`${itemAt}.country_code`, `${describeValue(code)} is not an upper-case ISO 3166-1 alpha-2 code`);
    } else if (seen.has(code)) {
      report(`${itemAt}.country_code`, `duplicate entry ${describeValue(code)}`);
    } else {
      seen.add(code);
      out.push({ country_code: code });
    }
  });
  return out;
}

function readDeprecationDate(raw: Record<string, unknown>, path: string, report: Report): string | undefined {
  if (!('deprecation_date' in raw)) return undefined;
  const value = raw.deprecation_date;
  const at = `${path}.deprecation_date`;
  if (typeof value !== 'string' || value === '') {
    report(at, `expected "YYYY-MM-DD", got ${describeValue(value)} (omit the key when there is no date)`);
    return undefined;
  }
  const match = ISO_DATE.exec(value);
  if (!match || !isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) {
    report(at, `${describeValue(value)} is not a real date in YYYY-MM-DD form`);
    return undefined;
  }
  return value;
}

// Date.UTC rolls 2026-02-30 over to March; a real date survives the round trip.
function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
