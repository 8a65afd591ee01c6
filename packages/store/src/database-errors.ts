// Some values are bad input on one database only: PostgreSQL refuses U+0000 in text and jsonb
// (and unpaired surrogates), which SQLite stores. Such a refusal is the client's fault, so it is
// answered as a 400, never a 500. Applied once, around every store method.
import { invalidField, invalidRequest } from '@weft/core';

const UNSTORABLE_TEXT = new Set(['22P05', '22021']); // untranslatable_character, character_not_in_repertoire

export function asClientError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  const message = (err as { message?: unknown } | null)?.message;
  // calls_ended_after_started (migration 0003): PostgreSQL's check, SQLite's trigger.
  if (
    (code === '23514' && String((err as { constraint?: unknown }).constraint) === 'calls_ended_after_started') ||
    (code === 'SQLITE_CONSTRAINT_TRIGGER' && message === 'ended_at is before started_at')
  ) {
    return invalidField(['body', 'ended_at'], "ended_at is before the call's started_at", 'value_error');
  }
  if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) {
    return invalidRequest('A string contains a character that cannot be stored (U+0000 or an unpaired surrogate)');
  }
  return err;
}

async function* translateIterable<T>(items: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* items;
  } catch (err) {
    throw asClientError(err);
  }
}

/** Wraps every method so database refusals of bad input become invalidRequest errors. */
export function translateDatabaseErrors<T extends object>(methods: T): T {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    if (typeof fn !== 'function') {
      out[name] = fn;
      continue;
    }
    out[name] = (...args: unknown[]) => {
      const result: unknown = (fn as (...a: unknown[]) => unknown).apply(methods, args);
      if (result instanceof Promise) return result.catch((err: unknown) => Promise.reject(asClientError(err) as Error));
      if (result && typeof result === 'object' && Symbol.asyncIterator in result)
        return translateIterable(result as AsyncIterable<unknown>);
      return result;
    };
  }
  return out as T;
}
