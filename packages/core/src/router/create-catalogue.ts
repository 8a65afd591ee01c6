import { createHash } from 'node:crypto';
import type { ModelEntry } from './model-entry.ts';

/** The served model list, ready for the HTTP layer. */
export interface Catalogue {
  /** Wire entries in catalogue-file order (deeply frozen). */
  readonly entries: readonly ModelEntry[];
  /** Exact, case-sensitive lookup by model id. */
  byId(id: string): ModelEntry | undefined;
  /** `JSON.stringify({ data: entries })`, serialised once at startup. */
  readonly body: string;
  /** Strong ETag of `body`: `"` + sha256 base64url + `"`. */
  readonly etag: string;
}

/**
 * Builds a Catalogue from already-valid entries. The body and ETag are
 * computed once so `If-None-Match` can be answered with 304 without
 * re-serialising; entries are frozen so nobody can change them and leave
 * `body`/`etag` stale.
 */
export function createCatalogue(entries: readonly ModelEntry[]): Catalogue {
  const frozen = Object.freeze(entries.map(deepFreeze));
  const index = new Map<string, ModelEntry>();
  for (const entry of frozen) {
    if (index.has(entry.id)) throw new Error(`duplicate model id ${JSON.stringify(entry.id)}`);
    index.set(entry.id, entry);
  }
  const body = JSON.stringify({ data: frozen });
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  return Object.freeze({
    entries: frozen,
    byId: (id: string) => index.get(id),
    body,
    etag,
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
