// Calls turned into dataset rows (issue: datasets from traces): the call's inputs as the row's
// columns, in the order the call recorded them, optionally its output as `expected_output`, and
// `source_call_ref`, the call's ref, so every row says where it came from. A Dataset object is
// written as Weave's Python SDK publishes one, its `rows` a table ref.

export const SOURCE_COLUMN = 'source_call_ref';
export const EXPECTED_COLUMN = 'expected_output';

export interface CallLike {
  id: string;
  project_id: string;
  inputs: Record<string, unknown>;
  output?: unknown;
}

export function callRef(call: Pick<CallLike, 'id' | 'project_id'>): string {
  return `weave:///${call.project_id}/call/${call.id}`;
}

/** One row per call; inputs that collide with the added columns are refused rather than overwritten. */
export function rowsOfCalls(calls: readonly CallLike[], withOutput: boolean): { rows: Record<string, unknown>[] } | { error: string } {
  const rows: Record<string, unknown>[] = [];
  for (const call of calls) {
    const clash = [SOURCE_COLUMN, ...(withOutput ? [EXPECTED_COLUMN] : [])].find((c) => Object.hasOwn(call.inputs, c));
    if (clash) return { error: `Call ${call.id} has an input named ${clash}, which the dataset row would overwrite` };
    rows.push({ ...call.inputs, ...(withOutput ? { [EXPECTED_COLUMN]: call.output ?? null } : {}), [SOURCE_COLUMN]: callRef(call) });
  }
  return { rows };
}

export interface DatasetVal {
  _type: 'Dataset';
  name: string;
  description: string | null;
  rows: string;
  _class_name: 'Dataset';
  _bases: ['Object', 'BaseModel'];
}

export function datasetVal(projectId: string, name: string, description: string | null, tableDigest: string): DatasetVal {
  return {
    _type: 'Dataset',
    name,
    description,
    rows: `weave:///${projectId}/table/${tableDigest}`,
    _class_name: 'Dataset',
    _bases: ['Object', 'BaseModel'],
  };
}

/** The table digest of a Dataset value's `rows` ref, or undefined when it holds none. */
export function tableDigestOf(val: unknown): string | undefined {
  const rows = (val as { rows?: unknown } | null)?.rows;
  if (typeof rows !== 'string') return undefined;
  const match = /^weave:\/\/\/[^/]+\/[^/]+\/table\/([0-9a-f]+)$/.exec(rows);
  return match?.[1];
}
