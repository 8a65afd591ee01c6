// After a fault: every write the server acknowledged must read back identical through the API,
// and no write, acknowledged or not, may exist twice (a retry after a lost answer must not add a
// version, a call or a feedback row). Everything in the ledger's project was written by the
// ledger, so anything else there is wrong.
//
// "Identical" is the JSON text, key order included, of the form the server documents keeping:
// objects and table rows with their keys as sent on both databases (packages/store's
// value-encoding.ts); calls and feedback as sent on SQLite, in jsonb order on PostgreSQL (jsonb
// columns, ARCHITECTURE.md). A test may name other orders (`keyOrder`).
import { answerJson, apiCall } from './api-call.ts';
import type { ApiTarget, WriteFamily, WriteKind, WriteRecord } from './write-kinds.ts';

export type KeyOrder = 'as-sent' | 'jsonb';

export function storedKeyOrder(dialect: 'sqlite' | 'postgres'): Record<WriteFamily, KeyOrder> {
  const ofColumns: KeyOrder = dialect === 'postgres' ? 'jsonb' : 'as-sent';
  return { obj: 'as-sent', table: 'as-sent', call: ofColumns, feedback: ofColumns };
}

export interface VerifyReport {
  /** Writes checked per kind (acknowledged or not). */
  checked: Partial<Record<WriteKind, number>>;
  /** Empty when all is well; one line per thing wrong. */
  problems: string[];
}

type Body = Record<string, unknown>;
interface StoredObj {
  object_id: string;
  digest: string;
  version_index: number;
  val: unknown;
}
interface StoredCall {
  id: string;
  trace_id: string;
  inputs: unknown;
  attributes: unknown;
  output?: unknown;
  ended_at?: string;
  summary?: Body;
}
interface StoredFeedback {
  id: string;
  payload: unknown;
}

const text = (value: unknown) => JSON.stringify(value);

export interface VerifyOptions {
  /** Default: storedKeyOrder of the target's database. */
  keyOrder?: Partial<Record<WriteFamily, KeyOrder>>;
}

export async function verifyWrites(
  target: ApiTarget,
  project_id: string,
  records: WriteRecord[],
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const orders: Partial<Record<WriteFamily, KeyOrder>> = {
    ...(target.databaseUrl ? storedKeyOrder(dialectOf(target.databaseUrl)) : {}),
    ...options.keyOrder,
  };
  const expected = (family: WriteFamily, sent: unknown) => {
    const order = orders[family];
    if (!order) throw new Error(`verify: no key order for ${family}: give the target its databaseUrl, or pass keyOrder`);
    return text(order === 'jsonb' ? inJsonbOrder(sent) : sent);
  };
  const post = async <T>(path: string, body: unknown) =>
    answerJson<T>(await apiCall(target.url, path, body, { key: target.aliceKey, timeoutMs: 60_000 }), `verify ${path}`);
  const problems: string[] = [];
  const checked: VerifyReport['checked'] = {};
  for (const r of records) checked[r.kind] = (checked[r.kind] ?? 0) + 1;
  const of = (kind: WriteKind) => records.filter((r) => r.kind === kind);
  const acked = (r: WriteRecord) => r.outcome === 'acknowledged';

  // Objects: one version per object id, with the acknowledged digest and the value as sent.
  const { objs } = await post<{ objs: StoredObj[] }>('/objs/query', { project_id });
  const versions = groupBy(objs, (o) => o.object_id);
  problems.push(...strangers('obj', versions, of('obj')));
  for (const r of of('obj')) {
    const found = versions.get(r.id) ?? [];
    if (found.length > 1) problems.push(`obj ${r.id}: ${found.length} versions of one value (a retry duplicated it)`);
    if (!acked(r)) continue;
    const sent = (r.body.obj as Body).val;
    const digest = (r.answer as { digest: string }).digest;
    if (found.length === 0) problems.push(`obj ${r.id}: acknowledged (digest ${digest}) but not found`);
    else if (found[0]!.digest !== digest) problems.push(`obj ${r.id}: digest ${found[0]!.digest}, acknowledged ${digest}`);
    else if (text(found[0]!.val) !== expected('obj', sent))
      problems.push(`obj ${r.id}: read ${text(found[0]!.val)}, expected ${expected('obj', sent)}`);
  }

  // Calls: one call per id; inputs and attributes as started; output and summary as ended.
  const { calls } = await post<{ calls: StoredCall[] }>('/calls/query', { project_id });
  const byCall = groupBy(calls, (c) => c.id);
  problems.push(...strangers('call', byCall, of('callStart')));
  for (const r of of('callStart')) {
    const found = byCall.get(r.id) ?? [];
    if (found.length > 1) problems.push(`call ${r.id}: stored ${found.length} times`);
    if (!acked(r)) continue;
    const start = r.body.start as Body;
    const call = found[0];
    if (!call) problems.push(`call ${r.id}: start acknowledged but not found`);
    else if (text(call.inputs) !== expected('call', start.inputs))
      problems.push(`call ${r.id}: inputs ${text(call.inputs)}, expected ${expected('call', start.inputs)}`);
    else if (text(call.attributes) !== expected('call', start.attributes))
      problems.push(`call ${r.id}: attributes ${text(call.attributes)}, expected ${expected('call', start.attributes)}`);
    else if (call.trace_id !== start.trace_id) problems.push(`call ${r.id}: trace ${call.trace_id}, sent ${String(start.trace_id)}`);
  }
  for (const r of of('callEnd').filter(acked)) {
    const end = r.body.end as Body;
    const call = byCall.get(r.id)?.[0];
    const { weave: _derived, ...summary } = call?.summary ?? {};
    if (!call?.ended_at) problems.push(`call ${r.id}: end acknowledged but the call is not ended`);
    else if (text(call.output) !== expected('call', end.output))
      problems.push(`call ${r.id}: output ${text(call.output)}, expected ${expected('call', end.output)}`);
    else if (text(summary) !== expected('call', end.summary))
      problems.push(`call ${r.id}: summary ${text(summary)}, expected ${expected('call', end.summary)}`);
  }

  // Tables: content-addressed; each acknowledged table reads back row for row.
  for (const r of of('table').filter(acked)) {
    const sent = (r.body.table as Body).rows as unknown[];
    const answer = r.answer as { digest: string; row_digests: string[] };
    const { rows } = await post<{ rows: { digest: string; val: unknown }[] }>('/table/query', { project_id, digest: answer.digest });
    if (rows.length !== sent.length) problems.push(`table ${r.id}: ${rows.length} rows, sent ${sent.length}`);
    rows.forEach((row, i) => {
      if (row.digest !== answer.row_digests[i])
        problems.push(`table ${r.id} row ${i}: digest ${row.digest}, acknowledged ${answer.row_digests[i]}`);
      else if (text(row.val) !== expected('table', sent[i]))
        problems.push(`table ${r.id} row ${i}: read ${text(row.val)}, expected ${expected('table', sent[i])}`);
    });
  }

  // Feedback: the client's ids, each stored at most once, acknowledged ones with their payload.
  const { result } = await post<{ result: StoredFeedback[] }>('/feedback/query', { project_id });
  const byFeedback = groupBy(result, (f) => f.id);
  problems.push(...strangers('feedback', byFeedback, of('feedback')));
  for (const r of of('feedback')) {
    const found = byFeedback.get(r.id) ?? [];
    if (found.length > 1) problems.push(`feedback ${r.id}: stored ${found.length} times`);
    if (!acked(r)) continue;
    if (found.length === 0) problems.push(`feedback ${r.id}: acknowledged but not found`);
    else if (text(found[0]!.payload) !== expected('feedback', r.body.payload))
      problems.push(`feedback ${r.id}: payload ${text(found[0]!.payload)}, expected ${expected('feedback', r.body.payload)}`);
  }
  return { checked, problems };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    map.set(k, [...(map.get(k) ?? []), item]);
  }
  return map;
}

/** Ids stored in the ledger's project that no write of the ledger sent. */
function strangers(what: string, stored: Map<string, unknown[]>, records: WriteRecord[]): string[] {
  const sent = new Set(records.map((r) => r.id));
  return [...stored.keys()].filter((id) => !sent.has(id)).map((id) => `${what} ${id}: stored but never sent`);
}

function dialectOf(databaseUrl: string): 'sqlite' | 'postgres' {
  return /^postgres(ql)?:/.test(databaseUrl) ? 'postgres' : 'sqlite';
}

/** `value` with every object's keys in jsonb's order: shorter UTF-8 first, then byte-wise. */
function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length - y.length || Buffer.compare(x, y);
  });
  return Object.fromEntries(keys.map((k) => [k, inJsonbOrder((value as Record<string, unknown>)[k])]));
}
