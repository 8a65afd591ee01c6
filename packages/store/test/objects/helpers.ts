// Shared by the object and table tests: a store over one test database, requests sent the way
// the HTTP layer sends them (the parsed body plus its lossless parse), and error assertions.
import { isWeftError, JsonText, newJsonObject, parseLossless, toPlain, type WeftError } from '@weft/core';
import type * as T from '@weft/types';
import { CompiledQuery, sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { objectMethods } from '../../src/objects/index.ts';
import type { LosslessContext } from '../../src/store.ts';
import { tableMethods } from '../../src/tables/index.ts';

export type TestStore = ReturnType<typeof objectMethods> & ReturnType<typeof tableMethods>;

export function storeOn(db: Db): TestStore {
  return { ...objectMethods({ db }), ...tableMethods({ db }) };
}

/** A plain JS value has no number lexemes to keep: no lossless source. */
export const ALICE: LosslessContext = { user: 'alice', source: undefined };

/**
 * As the HTTP layer calls the store: `body` is the raw request text. (The plain request is built
 * from the lossless parse so that Python-only literals such as NaN can reach the store too.)
 */
export function viaHttp<Req>(body: string, user = 'alice'): [Req, LosslessContext] {
  const source = parseLossless(body);
  return [toPlain(source) as Req, { user, source }];
}

/**
 * A table/create as the server hands over a large body: each row still as its text (JsonText),
 * as sent, the rest of the tree parsed.
 */
export function viaHttpRowTexts(projectId: string, rowTexts: readonly string[], user = 'alice'): [T.TableCreateReq, LosslessContext] {
  const [req] = viaHttp<T.TableCreateReq>(`{"table":{"project_id":${JSON.stringify(projectId)},"rows":[${rowTexts.join(',')}]}}`, user);
  const table = newJsonObject();
  table.project_id = projectId;
  table.rows = rowTexts.map((text) => new JsonText(text));
  const source = newJsonObject();
  source.table = table;
  return [req, { user, source }];
}

export function createObj(
  store: TestStore,
  projectId: string,
  objectId: string,
  val: unknown,
  ctx: LosslessContext = ALICE,
): Promise<T.ObjCreateRes> {
  return store.objCreate({ obj: { project_id: projectId, object_id: objectId, val } }, ctx);
}

/** Rejects with a WeftError of this status and type; returns it for further checks. */
export async function expectWeftError(promise: Promise<unknown>, status: number, errorType: string): Promise<WeftError> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(isWeftError(caught), `expected a WeftError, got ${String(caught)}`).toBe(true);
  const err = caught as WeftError;
  expect({ status: err.status, errorType: err.errorType }).toEqual({ status, errorType });
  return err;
}

/** Milliseconds pass between writes that must get distinct created_at values. */
export const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 3));

let projectCounter = 0;
/** A project id of its own for each test: suites share one database per dialect. */
export const newProject = (label: string): string => `test/${label}-${++projectCounter}`;

/** The query plan as text; on PostgreSQL with sequential scans disabled (the test tables are tiny). */
export async function explain(db: Db, query: CompiledQuery): Promise<string> {
  if (db.dialect === 'sqlite') {
    const res = await db.kysely.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return res.rows.map((r) => r.detail).join('\n');
  }
  return db.kysely.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const res = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]));
    return res.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
