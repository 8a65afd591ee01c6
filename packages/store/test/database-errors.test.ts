// Values one database cannot hold are bad input on both: a 400, never a 500, and nothing stored.
import { describe, expect, it } from 'vitest';
import { isWeftError } from '@weft/core';
import { jsonParam, readJson } from '../src/db/index.ts';
import { asClientError, availabilityError, translateDatabaseErrors } from '../src/database-errors.ts';
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
        throw Object.assign(new Error('relation "nope" does not exist'), { code: '42P01' });
      },
      async *stream() {
        yield 1;
        throw Object.assign(new Error('invalid byte sequence'), { code: '22021' });
      },
    });
    await expect(methods.nul()).rejects.toMatchObject({ status: 400, errorType: 'InvalidRequest' });
    await expect(methods.other()).rejects.toMatchObject({ code: '42P01' });
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

describe('availabilityError: a database that cannot be used now', () => {
  const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
  const cases: Array<[string, unknown, number, string, RegExp]> = [
    ['a restart or pg_terminate_backend', pgError('57P01'), 503, 'DatabaseUnavailable', /terminated the connection.*57P01/],
    ['a crash of another backend', pgError('57P02'), 503, 'DatabaseUnavailable', /57P02/],
    ['starting up', pgError('57P03'), 503, 'DatabaseUnavailable', /starting up.*57P03/],
    ['no connection slot', pgError('53300'), 503, 'DatabaseUnavailable', /no free connection slots.*53300/],
    ['statement_timeout', pgError('57014'), 503, 'DatabaseUnavailable', /cancelled the statement/],
    ['lock_timeout', pgError('55P03'), 503, 'DatabaseUnavailable', /lock/],
    ['a deadlock', pgError('40P01'), 503, 'DatabaseUnavailable', /deadlock/],
    ['a standby after failover', pgError('25006'), 503, 'DatabaseUnavailable', /read-only/],
    ['a dropped database', pgError('3D000'), 503, 'DatabaseUnavailable', /does not exist/],
    ['a connection exception', pgError('08006'), 503, 'DatabaseUnavailable', /08006/],
    ['a full PostgreSQL disk', pgError('53100'), 507, 'InsufficientStorage', /no room.*53100/],
    ['refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 503, 'DatabaseUnavailable', /ECONNREFUSED/],
    [
      'refused on every address',
      new AggregateError([Object.assign(new Error(''), { code: 'ECONNREFUSED' })]),
      503,
      'DatabaseUnavailable',
      /ECONNREFUSED/,
    ],
    ['a cut connection', new Error('Connection terminated unexpectedly'), 503, 'DatabaseUnavailable', /Connection terminated/],
    ['no pool connection in time', new Error('timeout exceeded when trying to connect'), 503, 'DatabaseUnavailable', /timeout exceeded/],
    [
      'a full SQLite disk',
      Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      507,
      'InsufficientStorage',
      /SQLITE_FULL/,
    ],
    [
      'a SQLite write error',
      Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }),
      507,
      'InsufficientStorage',
      /SQLITE_IOERR_WRITE/,
    ],
    [
      'a SQLite file locked elsewhere',
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      503,
      'DatabaseUnavailable',
      /locked.*SQLITE_BUSY/,
    ],
  ];
  for (const [what, err, status, errorType, reason] of cases) {
    it(`${what}: ${status} ${errorType}, with Retry-After and the cause named`, () => {
      const found = availabilityError(err);
      expect(found).toMatchObject({ status, errorType, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) as string } });
      expect(found?.message).toMatch(reason);
      expect(asClientError(err)).toMatchObject({ status, errorType, cause: err });
    });
  }

  it('leaves bugs and bad input alone', () => {
    for (const err of [
      new TypeError('x is undefined'),
      Object.assign(new Error('syntax'), { code: '42601' }),
      Object.assign(new Error('corrupt'), { code: 'SQLITE_CORRUPT' }),
    ])
      expect(availabilityError(err)).toBeUndefined();
  });
});
