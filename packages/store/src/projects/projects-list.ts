// GET /projects: the projects holding data in the entities a key may access. Projects are not a
// table of their own (a project exists once something is written to it), so they are read off the
// indexes that lead with project_id: a loose index scan (one index seek per distinct project,
// a recursive query both databases run the same way) per table, never a scan of the rows, so a
// project of millions of calls costs what an empty one does.
import { sql } from 'kysely';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { TableName } from '../db/schema.ts';
import type { ProjectsListInput } from '../store.ts';

/** The tables a project can hold data in; each has an index whose first column is project_id. */
const PROJECT_TABLES: readonly TableName[] = ['calls', 'objects', 'tables', 'feedback', 'annotation_queues', 'files', 'models'];

export async function projectsList(db: Db, req: ProjectsListInput): Promise<T.ProjectsListRes> {
  const limit = req.limit ?? 1000;
  // `<entity>/` up to (not including) `<entity>0`: '0' follows '/' in every collation of ASCII.
  const ranges: Array<[string, string | null]> =
    req.entities === 'all' ? [['', null]] : [...new Set(req.entities)].map((e) => [`${e}/`, `${e}0`]);
  const found = new Set<string>();
  for (const [from, below] of ranges) {
    for (const table of PROJECT_TABLES) {
      for (const id of await distinctProjects(db, table, from, below, limit + 1)) found.add(id);
    }
  }
  const ids = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const projects = ids.slice(0, limit).map((project_id) => {
    const slash = project_id.indexOf('/');
    return { project_id, entity: project_id.slice(0, slash), project: project_id.slice(slash + 1) };
  });
  return { projects, has_more: ids.length > limit };
}

async function distinctProjects(db: Db, table: TableName, from: string, below: string | null, max: number): Promise<string[]> {
  const t = sql.table(table);
  const upper = below === null ? sql`` : sql` and project_id < ${below}`;
  const { rows } = await sql<{ id: string }>`
    with recursive p(id, n) as (
      select (select min(project_id) from ${t} where project_id >= ${from}${upper}), 1
      union all
      select (select min(project_id) from ${t} where project_id > p.id${upper}), n + 1 from p where p.id is not null and n < ${max}
    )
    select id from p where id is not null`.execute(db.kysely);
  return rows.map((r) => r.id);
}
