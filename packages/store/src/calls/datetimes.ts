// Client datetimes in the stored form (fixed-width UTC ISO text, see db/schema.ts), so that text
// order is time order and latency can be computed at read time.
import { invalidRequest } from '@weft/core';
import { toIsoDatetime } from '../db/index.ts';

/** `value` as stored; a value no stored form exists for (unparsable, year ≥ 10000) is a 400. */
export function storedDatetime(field: string, value: string): string {
  try {
    return toIsoDatetime(value);
  } catch {
    throw invalidRequest(`${field} is not a valid datetime: ${JSON.stringify(value)}`);
  }
}
