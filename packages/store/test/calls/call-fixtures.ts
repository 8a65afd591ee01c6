// Shared builders for the calls tests. Fields are loosely typed: the wire types declare
// free-form JSON objects (inputs, summary, …) as Record<string, never>.
import { loadCatalogue, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import { callMethods } from '../../src/calls/index.ts';
import type { Db } from '../../src/db/index.ts';

export const catalogue: Catalogue = await loadCatalogue();
/** alice, who may read every project: the tests of refs across tenants narrow it themselves. */
export const ctx = { user: 'alice', mayRead: (): boolean => true };

export const T0 = '2025-06-03T09:41:27.512Z';
export const T1 = '2025-06-03T09:41:28.907Z'; // T0 + 1395 ms

export function callsOf(db: Db) {
  return callMethods({ db, catalogue });
}

export function startReq(project_id: string, fields: Record<string, unknown> = {}): T.CallStartReq {
  return { start: { project_id, op_name: 'my_op', started_at: T0, attributes: {}, inputs: {}, ...fields } };
}

export function endReq(project_id: string, id: string, fields: Record<string, unknown> = {}): T.CallEndReq {
  return { end: { project_id, id, ended_at: T1, summary: {}, ...fields } };
}

/** `summary.weave` of a read call. */
export function weaveOf(call: T.CallSchema): Record<string, unknown> {
  return (call.summary as unknown as { weave: Record<string, unknown> }).weave;
}
