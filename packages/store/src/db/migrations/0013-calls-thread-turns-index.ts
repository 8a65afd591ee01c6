// threads/stream_query reads a project's turn calls (Weave: a call whose turn_id is its own id,
// with a thread_id; live ones) and groups them by thread. This partial index holds exactly those
// calls with the columns the aggregate reads, in start order (the request's time filter bounds
// the start: a range of the index), so the read touches no other call of the project and no
// table row. Its condition is repeated word for word by the query (threads/turn-filter.ts):
// SQLite uses a partial index only when the query states its terms.
import { sql, type Migration } from 'kysely';
import { createIndex } from './create-table.ts';

export function callsThreadTurnsIndex(): Migration {
  return {
    async up(db) {
      await createIndex(
        db,
        'calls_thread_turns_idx',
        'calls',
        ['project_id', 'started_at', 'thread_id', 'ended_at', 'id'],
        sql`thread_id is not null and turn_id = id and deleted_at is null`,
      );
    },
    async down(db) {
      await db.schema.dropIndex('calls_thread_turns_idx').execute();
    },
  };
}
