// limit/offset of the query operations (objects and tables). The spec already requires integers
// >= 0; this guards direct store users too. No default limit: the TS SDK reads whole tables.
import { invalidRequest } from '@weft/core';

export interface Paging {
  /** undefined: no limit. */
  limit: number | undefined;
  offset: number;
}

export function checkPaging(limit: number | null | undefined, offset: number | null | undefined): Paging {
  for (const [name, value] of [
    ['limit', limit],
    ['offset', offset],
  ] as const) {
    if (value != null && !(Number.isSafeInteger(value) && value >= 0)) {
      throw invalidRequest(`${name} must be an integer >= 0, got ${String(value)}`);
    }
  }
  return { limit: limit ?? undefined, offset: offset ?? 0 };
}
