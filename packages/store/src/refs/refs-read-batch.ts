// refs/read_batch: the values Weave refs point at, as Weave's trace server resolves them. An
// object ref reads that version (deleted ones are not found) and walks its extra path: `attr` and
// `key` into an object, `index` into a list, `id` from a table ref (a `weave:///…/table/<digest>`
// string) to that row. A call ref reads the call as call/read answers it. Anything not found is a
// 404 naming the ref; a ref that is not one, or a bare table ref (Weave reads none either), a 400.
//
// A stored value may name any project (a table ref is only text), so every hop, the ref itself
// and each table ref it walks through, is read only in a project the caller may read; any other
// is answered exactly as a missing one (same status, type and reason), so that a ref cannot tell
// whether another tenant's table or row exists.
import { invalidRequest, notFound, parseWeaveRef, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import { callNotFound, callRead } from '../calls/call-read.ts';
import { readJson, type Db } from '../db/index.ts';
import { objNotFound, objRead } from '../objects/obj-read.ts';
import type { ReadingContext } from '../store.ts';

export async function refsReadBatch(
  db: Db,
  catalogue: Catalogue,
  req: T.RefsReadBatchReq,
  ctx: ReadingContext,
): Promise<T.RefsReadBatchRes> {
  const vals: unknown[] = [];
  for (const uri of req.refs) vals.push(await readRef(db, catalogue, uri, ctx));
  return { vals };
}

/** The value one ref points at (see the header); throws 404 or 400 as refs/read_batch answers. */
export async function readRef(db: Db, catalogue: Catalogue, uri: string, ctx: ReadingContext): Promise<unknown> {
  const ref = parseWeaveRef(uri);
  if ('error' in ref) throw invalidRequest(ref.error);
  if (ref.kind === 'table') throw invalidRequest(`Table refs are not read by refs/read_batch (use table/query): ${uri}`);
  if (ref.kind === 'call') {
    if (!ctx.mayRead(ref.projectId)) throw callNotFound(ref.id);
    return (await callRead(db, catalogue, { project_id: ref.projectId, id: ref.id })).call;
  }
  if (!ctx.mayRead(ref.projectId)) throw objNotFound(ref.name, ref.version);
  // A deleted version is a 404 (ObjectDeletedError), as obj/read answers it.
  const { obj } = await objRead(db, { project_id: ref.projectId, object_id: ref.name, digest: ref.version }, ctx);
  let val: unknown = obj.val;
  for (let i = 0; i < ref.extra.length; i += 2) {
    const [edge, arg] = [ref.extra[i]!, ref.extra[i + 1]!];
    const missing = () => notFound(`Ref ${uri} not found: nothing at ${edge}/${arg}`);
    if (edge === 'attr' || edge === 'key') {
      if (typeof val !== 'object' || val === null || Array.isArray(val) || !Object.hasOwn(val, arg)) throw missing();
      val = (val as Record<string, unknown>)[arg];
    } else if (edge === 'index') {
      const index = Number(arg.trim());
      // Python's negative indexes count from the end.
      const at = Array.isArray(val) ? (index < 0 ? val.length + index : index) : -1;
      if (!Array.isArray(val) || at < 0 || at >= val.length) throw missing();
      val = val[at];
    } else {
      val = await tableRow(db, ctx, uri, val, arg);
    }
  }
  return val;
}

/** `id/<row digest>` from a value that must be a table ref, of a project the caller may read. */
async function tableRow(db: Db, ctx: ReadingContext, uri: string, val: unknown, rowDigest: string): Promise<unknown> {
  const table = typeof val === 'string' ? parseWeaveRef(val) : undefined;
  if (!table || 'error' in table || table.kind !== 'table')
    throw invalidRequest(`Ref ${uri}: an id edge needs a table ref, found ${JSON.stringify(val)?.slice(0, 100)}`);
  const missing = () => notFound(`Ref ${uri} not found: table ${table.digest} has no row ${rowDigest}`);
  if (!ctx.mayRead(table.projectId)) throw missing();
  const row = await db.kysely
    .selectFrom('table_rows')
    .innerJoin('rows', (j) => j.onRef('rows.project_id', '=', 'table_rows.project_id').onRef('rows.digest', '=', 'table_rows.row_digest'))
    .select('rows.val')
    .where('table_rows.project_id', '=', table.projectId)
    .where('table_rows.table_digest', '=', table.digest)
    .where('table_rows.row_digest', '=', rowDigest)
    .limit(1)
    .executeTakeFirst();
  if (!row) throw missing();
  return readJson(db, row.val);
}
