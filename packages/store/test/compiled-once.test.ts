// A query compiled once must answer exactly as the same query built on each call, for any values
// bound, on both databases; and a build that cannot be bound safely is refused, not run.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { compiledOnce } from '../src/db/compiled-once.ts';
import { jsonParam } from '../src/db/index.ts';
import { describeEachDialect } from './dialects.ts';

const readProject = compiledOnce(['project_id', 'op'], (db, slot) =>
  db.kysely
    .selectFrom('calls')
    .select(['id', 'op_name'])
    .where('project_id', '=', slot.project_id)
    .where('op_name', '=', slot.op)
    // A constant among the parameters stays bound as it was built.
    .where('display_name', '<>', 'skip me')
    .orderBy('id'),
);

describeEachDialect('compiledOnce', (getDb) => {
  it('binds each run its own values, and keeps the constants it was built with', async () => {
    const db = getDb();
    const call = (project_id: string, id: string, op_name: string, display_name = 'shown') => ({
      project_id,
      id,
      op_name,
      display_name,
      started_at: '2026-01-01T00:00:00.000Z',
      attributes: jsonParam(db, {}),
      inputs: jsonParam(db, {}),
    });
    await db.kysely
      .insertInto('calls')
      .values([call('e/a', '1', 'x'), call('e/a', '2', 'y'), call('e/b', '3', 'x'), call('e/a', '4', 'x', 'skip me')])
      .execute();
    expect(await readProject(db, { project_id: 'e/a', op: 'x' })).toEqual([{ id: '1', op_name: 'x' }]);
    expect(await readProject(db, { project_id: 'e/b', op: 'x' })).toEqual([{ id: '3', op_name: 'x' }]);
    expect(await readProject(db, { project_id: 'e/a', op: 'y' })).toEqual([{ id: '2', op_name: 'y' }]);
    // A value that looks like SQL is a value.
    expect(await readProject(db, { project_id: "e/a' or '1'='1", op: 'x' })).toEqual([]);
  });

  it('refuses a build whose marker would land in the SQL text, or a name it never binds', async () => {
    const db = getDb();
    const spliced = compiledOnce(['id'], (d, slot) =>
      d.kysely
        .selectFrom('calls')
        .select('id')
        .where(sql.raw<boolean>(`id = '${slot.id}'`)),
    );
    await expect(spliced(db, { id: '1' })).rejects.toThrow(/marker ended up in the SQL text/);
    const unused = compiledOnce(['id', 'other'], (d, slot) => d.kysely.selectFrom('calls').select('id').where('id', '=', slot.id));
    await expect(unused(db, { id: '1', other: 2 })).rejects.toThrow(/other never bound/);
  });
});
