// Values one database cannot hold are bad input on both: a 400, never a 500, and nothing stored.
import { describe, expect, it } from 'vitest';
import { isWeftError } from '@weft/core';
import { jsonParam, readJson } from '../src/db/index.ts';
import { asClientError, translateDatabaseErrors } from '../src/database-errors.ts';
import { describeEachDialect } from './dialects.ts';

describeEachDialect('U+0000 in JSON values', (getDb) => {
  it('is refused as invalid request before reaching the database', () => {
    let thrown: unknown;
    try {
      jsonParam(getDb(), { question: 'a\u0000b' });
    } catch (err) {
      thrown = err;
    }
    expect(isWeftError(thrown) && thrown.status).toBe(400);
  });

  it('is not confused with a literal backslash followed by u0000', async () => {
    const db = getDb();
    const row = await db.kysely.selectNoFrom(() => [jsonParam(db, { text: 'C:\\u0000' }).as('v')]).executeTakeFirstOrThrow();
    expect(readJson(db, row.v)).toEqual({ text: 'C:\\u0000' });
  });
});

describe('translateDatabaseErrors', () => {
  it('turns PostgreSQL "untranslatable character" into a 400 and leaves other errors alone', async () => {
    const methods = translateDatabaseErrors({
      async nul() {
        throw Object.assign(new Error('unsupported Unicode escape sequence'), { code: '22P05' });
      },
      async other() {
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      },
      async *stream() {
        yield 1;
        throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
      },
    });
    await expect(methods.nul()).rejects.toMatchObject({ status: 400, errorType: 'InvalidRequest' });
    await expect(methods.other()).rejects.toMatchObject({ code: '40P01' });
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const x of methods.stream()) seen.push(x);
      })(),
    ).rejects.toMatchObject({ status: 400 });
    expect(seen).toEqual([1]);
    expect(asClientError('plain')).toBe('plain');
  });
});
