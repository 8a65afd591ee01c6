// Write calls into a dataset through the typed client: a new Dataset (its table created, then the
// object published), or a new version of an existing one (its table appended to, then the object
// republished with the new table). Calls are read, and rows written, 1,000 at a time.
import { parseJsonLines, type WeftClient } from '@weft/client';
import { datasetVal, rowsOfCalls, tableDigestOf, type CallLike } from './dataset-rows.ts';

const CHUNK = 1000;

async function readCalls(client: WeftClient, projectId: string, ids: readonly string[]): Promise<CallLike[]> {
  const calls: CallLike[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const text = await client.POST('/calls/stream_query', {
      body: {
        project_id: projectId,
        filter: { call_ids: ids.slice(i, i + CHUNK) },
        columns: ['id', 'project_id', 'inputs', 'output', 'started_at'],
        sort_by: [{ field: 'started_at', direction: 'asc' }],
      },
    });
    calls.push(...parseJsonLines<CallLike>(text));
  }
  return calls;
}

async function appendRows(client: WeftClient, projectId: string, base: string, rows: Record<string, unknown>[]): Promise<string> {
  let digest = base;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const res = await client.POST('/table/update', {
      body: { project_id: projectId, base_digest: digest, updates: rows.slice(i, i + CHUNK).map((row) => ({ append: { row } })) },
    });
    digest = res.digest;
  }
  return digest;
}

export interface DatasetTarget {
  name: string;
  /** The latest version's value, for an existing dataset. */
  existing?: unknown;
}

/** Adds the calls' rows; answers how many rows and the dataset version's digest. */
export async function addCallsToDataset(
  client: WeftClient,
  projectId: string,
  ids: readonly string[],
  target: DatasetTarget,
  withOutput: boolean,
): Promise<{ rows: number; digest: string }> {
  const built = rowsOfCalls(await readCalls(client, projectId, ids), withOutput);
  if ('error' in built) throw new Error(built.error);
  const { rows } = built;
  let val: Record<string, unknown>;
  if (target.existing !== undefined) {
    const base = tableDigestOf(target.existing);
    if (!base) throw new Error(`${target.name} holds no table of rows`);
    const digest = await appendRows(client, projectId, base, rows);
    // The same value with the new table in place: the keys keep their order.
    val = { ...(target.existing as Record<string, unknown>), rows: `weave:///${projectId}/table/${digest}` };
  } else {
    const created = await client.POST('/table/create', { body: { table: { project_id: projectId, rows: rows.slice(0, CHUNK) } } });
    const digest = await appendRows(client, projectId, created.digest, rows.slice(CHUNK));
    val = { ...datasetVal(projectId, target.name, null, digest) };
  }
  const obj = await client.POST('/obj/create', { body: { obj: { project_id: projectId, object_id: target.name, val } } });
  return { rows: rows.length, digest: obj.digest };
}
