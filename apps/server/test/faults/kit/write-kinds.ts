// The writes the fault tests' load generator sends, one builder per kind: idempotent as a
// well-behaved client makes them (ids chosen by the client, content-addressed values), so a
// retry after a lost answer must not create anything twice. Every value has its keys out of
// sorted order, nested, with non-ASCII text: a server that re-sorts or re-encodes shows.
// Keys are never integer-like, so JSON.parse keeps their order and JSON.stringify of a parsed
// value has the text's key order (how write-verify.ts compares what was sent and what is read).

export type WriteKind = 'obj' | 'callStart' | 'callEnd' | 'table' | 'feedback';
/** What a writer cycles through: a call is a start and, once the start is acknowledged, its end. */
export type WriteFamily = 'obj' | 'call' | 'table' | 'feedback';
export const ALL_FAMILIES: readonly WriteFamily[] = ['obj', 'call', 'table', 'feedback'];

/** The server a ledger writes to: a ServerProcess or an in-process TestServer both are one. */
export interface ApiTarget {
  url: string;
  aliceKey: string;
  /** Which database the server stores in (sqlite:… or postgres://…): the key order it keeps depends on it. */
  databaseUrl?: string;
}

export interface WriteRequest {
  kind: WriteKind;
  /** The id the client chose: object_id, call id, feedback id; for a table, the write's own name. */
  id: string;
  path: string;
  body: Record<string, unknown>;
}

/** A value whose keys are not in sorted order. `padBytes` makes writes heavier. */
export function unsortedValue(id: string, seq: number, padBytes = 0): Record<string, unknown> {
  return {
    zulu: id,
    alpha: seq,
    mike: { yankee: [3, 1, 2], bravo: 'é ✓ 日本 🎉', delta: null },
    charlie: -2.5,
    echo: seq % 2 === 0,
    ...(padBytes > 0 ? { papa: 'p'.repeat(padBytes) } : {}),
  };
}

export function objCreate(project_id: string, id: string, seq: number, padBytes: number): WriteRequest {
  return { kind: 'obj', id, path: '/obj/create', body: { obj: { project_id, object_id: id, val: unsortedValue(id, seq, padBytes) } } };
}

export function callStart(project_id: string, id: string, seq: number, padBytes: number): WriteRequest {
  const start = {
    project_id,
    id,
    trace_id: id,
    op_name: 'fault-kit-write',
    started_at: new Date().toISOString(),
    attributes: { zone: 'faults', attempt_kind: 'load' },
    inputs: unsortedValue(id, seq, padBytes),
  };
  return { kind: 'callStart', id, path: '/call/start', body: { start } };
}

export function callEnd(project_id: string, id: string, seq: number): WriteRequest {
  const end = {
    project_id,
    id,
    ended_at: new Date().toISOString(),
    output: { verdict: 'ok', answer: seq, details: { zeta: 1, beta: [true, false] } },
    summary: { usage: { 'fault-model': { requests: 1, prompt_tokens: 7, completion_tokens: 3 } }, custom: { y: 1, b: 2 } },
  };
  return { kind: 'callEnd', id, path: '/call/end', body: { end } };
}

export function tableCreate(project_id: string, id: string, seq: number, padBytes: number): WriteRequest {
  const rows = [0, 1, 2].map((i) => ({ ...unsortedValue(`${id}/${i}`, seq * 3 + i, padBytes), question: `q${seq}-${i}` }));
  return { kind: 'table', id, path: '/table/create', body: { table: { project_id, rows } } };
}

export function feedbackCreate(project_id: string, id: string, seq: number): WriteRequest {
  return {
    kind: 'feedback',
    id,
    path: '/feedback/create',
    body: {
      id,
      project_id,
      weave_ref: `weave:///${project_id}/call/${id}`,
      feedback_type: 'fault-kit',
      payload: { score: seq, reason: 'kept ✓', nested: { z: 1, a: 2 } },
    },
  };
}

export interface Attempt {
  kind: WriteKind;
  id: string;
  /** 1 for the first try. */
  attempt: number;
  /** '200', '503', 'timeout', 'ECONNREFUSED', … */
  label: string;
  /** Epoch ms when it was sent, to line up with the moment a fault began. */
  sentAt: number;
  ms: number;
}

export type WriteOutcome = 'acknowledged' | 'gave-up' | 'refused';

export interface WriteRecord extends WriteRequest {
  outcome: WriteOutcome;
  attempts: number;
  /** The last attempt's label. */
  last: string;
  /** The parsed body of the 2xx answer. */
  answer?: unknown;
}
