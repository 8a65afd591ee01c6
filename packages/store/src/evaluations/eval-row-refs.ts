// resolve_row_refs: a dataset row ref (`weave:///<p>/object/<dataset>:<digest>/attr/rows/id/<row>`)
// replaced by the row it names. Each dataset's table ref is read once (through readRef, which
// checks every hop against the projects the caller may read), then its rows by digest in one
// query per slice. A ref that does not resolve stays as it was, with a warning.
import { isWeftError, parseWeaveRef, type Catalogue } from '@weft/core';
import { readJson, maxBindParameters, type Db } from '../db/index.ts';
import { readRef } from '../refs/refs-read-batch.ts';
import type { ReadingContext } from '../store.ts';

const ROW_EDGE = '/attr/rows/id/';

/** The rows of the refs among `examples` (keyed by the ref), and warnings for those that did not resolve. */
export async function resolveRowRefs(
  db: Db,
  catalogue: Catalogue,
  examples: readonly unknown[],
  ctx: ReadingContext,
): Promise<{ rows: Map<string, unknown>; warnings: string[] }> {
  const byDataset = new Map<string, Map<string, string>>();
  for (const example of examples) {
    if (typeof example !== 'string') continue;
    const at = example.lastIndexOf(ROW_EDGE);
    if (at < 0) continue;
    const dataset = example.slice(0, at);
    const digest = example.slice(at + ROW_EDGE.length);
    let refs = byDataset.get(dataset);
    if (!refs) byDataset.set(dataset, (refs = new Map<string, string>()));
    refs.set(digest, example);
  }
  const rows = new Map<string, unknown>();
  let unresolved = 0;
  for (const [dataset, refs] of byDataset) {
    const table = await tableOf(db, catalogue, dataset, ctx);
    if (!table) {
      unresolved += refs.size;
      continue;
    }
    const digests = [...refs.keys()];
    const size = maxBindParameters(db) - 10;
    for (let i = 0; i < digests.length; i += size) {
      const found = await db.kysely
        .selectFrom('table_rows')
        .innerJoin('rows', (j) =>
          j.onRef('rows.project_id', '=', 'table_rows.project_id').onRef('rows.digest', '=', 'table_rows.row_digest'),
        )
        .select(['table_rows.row_digest', 'rows.val'])
        .where('table_rows.project_id', '=', table.projectId)
        .where('table_rows.table_digest', '=', table.digest)
        .where('table_rows.row_digest', 'in', digests.slice(i, i + size))
        .execute();
      for (const r of found) rows.set(refs.get(r.row_digest)!, readJson(db, r.val));
    }
    for (const ref of refs.values()) if (!rows.has(ref)) unresolved++;
  }
  const warnings = unresolved > 0 ? [`${unresolved} dataset row ref(s) could not be resolved; their raw_data_row is the ref`] : [];
  return { rows, warnings };
}

/** The table a dataset version's `rows` points at, if the caller may read it. */
async function tableOf(
  db: Db,
  catalogue: Catalogue,
  dataset: string,
  ctx: ReadingContext,
): Promise<{ projectId: string; digest: string } | undefined> {
  let val: unknown;
  try {
    val = await readRef(db, catalogue, `${dataset}/attr/rows`, ctx);
  } catch (e) {
    // Not found or not a ref: the row stays a ref. Anything else (the database) is the request's failure.
    if (isWeftError(e) && (e.status === 404 || e.status === 400)) return undefined;
    throw e;
  }
  const table = typeof val === 'string' ? parseWeaveRef(val) : undefined;
  if (!table || 'error' in table || table.kind !== 'table' || !ctx.mayRead(table.projectId)) return undefined;
  return { projectId: table.projectId, digest: table.digest };
}
