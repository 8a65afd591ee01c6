// The second half of the retention sweep: files that expired calls referenced, deleted once no
// value of their project references them any more.
//
// "References" is read conservatively, from how Weave names files: a custom object (an op's
// source, an image, audio) is `{"_type": "CustomWeaveType", "files": {"<name>": "<digest>"}, …}`
// inside an object's val, a table row, a call's inputs/output/attributes/summary or a feedback
// payload. A file stays while its digest is a string anywhere in any of those values of its
// project, under `files` or not, deleted (soft) or not. Only candidates are ever checked: files an
// expired call referenced (sweep-calls.ts), so an upload nothing references yet is never touched.
//
// Concurrent writers: a client uploads a file (file/create) around the time it writes the value
// naming it. An upload of a candidate removes the candidate (files/file-create.ts), and a
// candidate is checked only after a grace period (default 1 h) from its queueing, so a value
// written within the grace of its upload is seen by the check, and an upload racing the delete
// either rescues the file or stores it again. The check reads the whole project once, per
// project and grace period at most, through db.readLong (a reader thread on a SQLite file); the
// deletes are short transactions, bounded in files and in bytes.
import { sql } from 'kysely';
import { asWritten, jsonStrings, type Db } from '../db/index.ts';

export interface FileBatchLimits {
  files: number;
  bytes: number;
}

/** Columns whose values may name files, by table; objects and table rows are JSON as written (json). */
const VALUE_COLUMNS: ReadonlyArray<[table: string, column: string, asWritten?: true]> = [
  ['objects', 'val', true],
  ['rows', 'val', true],
  ['calls', 'inputs'],
  ['calls', 'output'],
  ['calls', 'attributes'],
  ['calls', 'summary'],
  ['feedback', 'payload'],
];

/** Projects with candidates queued at or before `cutoff`. */
export async function projectsWithDueFiles(db: Db, cutoff: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('retention_file_candidates')
    .select('project_id')
    .distinct()
    .where('queued_at', '<=', cutoff)
    .orderBy('project_id')
    .execute();
  return rows.map((r) => r.project_id);
}

interface Candidate {
  digest: string;
  /** null when the file is gone already. */
  size: number | null;
}

async function dueCandidates(db: Db, projectId: string, cutoff: string): Promise<Candidate[]> {
  const rows = await db.kysely
    .selectFrom('retention_file_candidates as c')
    .leftJoin('files as f', (join) => join.onRef('f.project_id', '=', 'c.project_id').onRef('f.digest', '=', 'c.digest'))
    .select(['c.digest', 'f.size_bytes'])
    .where('c.project_id', '=', projectId)
    .where('c.queued_at', '<=', cutoff)
    .orderBy('c.digest')
    .execute();
  return rows.map((r) => ({ digest: r.digest, size: r.size_bytes === null ? null : Number(r.size_bytes) }));
}

/** The due candidates that some value of the project still names: one pass over its values. */
async function stillReferenced(db: Db, projectId: string, cutoff: string): Promise<Set<string>> {
  const due = sql`(select digest from retention_file_candidates where project_id = ${projectId} and queued_at <= ${cutoff})`;
  const branches = VALUE_COLUMNS.map(([table, column, written]) => {
    const s = jsonStrings(db, written ? asWritten(`t.${column}`) : sql.ref(`t.${column}`));
    return sql`select ${s.value} as digest from ${sql.table(table)} as t, ${s.from}
      where t.project_id = ${projectId} and ${s.isString} and ${s.value} in ${due}`;
  });
  const query = sql<{ digest: string }>`${sql.join(branches, sql` union `)}`.compile(db.kysely);
  return new Set((await db.readLong<{ digest: string }>(query)).map((r) => r.digest));
}

function chunks<T>(items: readonly T[], limits: FileBatchLimits, size: (item: T) => number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length > 0 && (current.length >= limits.files || bytes + size(item) > limits.bytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size(item);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Checks a project's due candidates and deletes the files nothing references; yields after each
 * short transaction with the number of files it deleted. A candidate is dropped once checked
 * (deleted or still referenced); one re-queued meanwhile (a later expiry) waits for its own turn.
 */
export async function* sweepProjectFiles(db: Db, projectId: string, cutoff: string, limits: FileBatchLimits): AsyncGenerator<number> {
  const candidates = await dueCandidates(db, projectId, cutoff);
  if (candidates.length === 0) return;
  const referenced = await stillReferenced(db, projectId, cutoff);
  const batches = chunks(candidates, limits, (c) => (referenced.has(c.digest) ? 0 : (c.size ?? 0)));
  for (const batch of batches) {
    const doomed = batch.filter((c) => c.size !== null && !referenced.has(c.digest)).map((c) => c.digest);
    const checked = batch.map((c) => c.digest);
    const deleted = await db.kysely.transaction().execute(async (trx) => {
      let n = 0;
      if (doomed.length > 0) {
        // Only while still a due candidate: an upload since the check took it off the list.
        const result = await trx
          .deleteFrom('files')
          .where('project_id', '=', projectId)
          .where('digest', 'in', doomed)
          .where((eb) =>
            eb(
              'digest',
              'in',
              eb
                .selectFrom('retention_file_candidates')
                .select('digest')
                .where('project_id', '=', projectId)
                .where('queued_at', '<=', cutoff),
            ),
          )
          .executeTakeFirst();
        n = Number(result.numDeletedRows);
      }
      await trx
        .deleteFrom('retention_file_candidates')
        .where('project_id', '=', projectId)
        .where('digest', 'in', checked)
        .where('queued_at', '<=', cutoff)
        .execute();
      return n;
    });
    yield deleted;
  }
}
