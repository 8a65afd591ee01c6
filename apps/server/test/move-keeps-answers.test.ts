// Moving data changes no answer. A project is written through the API on each database, with
// keys out of order and numbers spelt oddly in every kind of stored JSON, moved by `weft copy`
// and by `weft export` + `weft import` in every direction, and read back through a server on the
// target: every answer's bytes are compared with the source server's. SQLite keeps JSON as sent and
// PostgreSQL keeps table rows as written (json), so the move must keep them too. Its jsonb columns
// hold their keys in an order of their own, set when written: moved from SQLite into PostgreSQL,
// those read back as a PostgreSQL server answers the same writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDatabase, exportArchive, importArchive, openDatabase } from '@weft/store';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROJECT, readProject, writeProject, type Written } from './move-answers.ts';
import { startTestServer, type TestServer } from './test-server.ts';

type Kind = 'sqlite' | 'postgres';
type Answers = Array<[string, string]>;

// The ids and clock readings a server makes itself (creation times; model, queue and feedback
// ids) differ between two servers given the same writes: each distinct id is named by its first
// appearance, and every time is left out. Nothing else is changed.
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g;
function withoutServerChoices(answers: Answers): Answers {
  const ids = new Map<string, string>();
  const named = (id: string) => {
    if (!ids.has(id)) ids.set(id, `<id ${ids.size}>`);
    return ids.get(id) as string;
  };
  return answers.map(([name, text]) => [name, text.replace(UUID, named).replace(TIME, '<time>')]);
}

describeIfPostgres('a move keeps every answer byte for byte', () => {
  let dir: string;
  const servers: TestServer[] = [];
  const drops: Array<() => Promise<void>> = [];
  const sources = {} as Record<Kind, { server: TestServer; written: Written; answers: Answers }>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-move-answers-'));
    for (const kind of ['sqlite', 'postgres'] as const) {
      const server = await startTestServer(kind);
      servers.push(server);
      const written = await writeProject(server);
      sources[kind] = { server, written, answers: await readProject(server, written) };
    }
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const drop of drops) await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  async function move(from: Kind, to: Kind, how: 'copy' | 'export'): Promise<TestServer> {
    let url = `sqlite:${join(dir, `target-${n++}.sqlite`)}`;
    if (to === 'postgres') {
      const pg = await createPgTestDatabase();
      drops.push(() => pg.drop());
      url = pg.url;
    }
    const source = await openDatabase(sources[from].server.databaseUrl);
    const target = await openDatabase(url);
    try {
      if (how === 'copy') await copyDatabase(source, target);
      else {
        const file = join(dir, `export-${n++}.tar.gz`);
        await exportArchive(source, file, { weftVersion: 'test', projects: [PROJECT] });
        await importArchive(target, file);
      }
    } finally {
      await source.close();
      await target.close();
    }
    return startTestServer('sqlite', { DATABASE_URL: url });
  }

  // Table rows (a log's trajectories too) are text as written in both databases: moved as they are,
  // they read back as the source's. jsonb columns answer as a PostgreSQL server written the same.
  const fromRows = (name: string) => name.startsWith('table/query ') || name.startsWith('model trajectories');
  const cases: Array<[Kind, Kind, 'copy' | 'export']> = [
    ['sqlite', 'sqlite', 'export'],
    ['sqlite', 'postgres', 'copy'],
    ['sqlite', 'postgres', 'export'],
    ['postgres', 'sqlite', 'copy'],
    ['postgres', 'sqlite', 'export'],
    ['postgres', 'postgres', 'copy'],
    ['postgres', 'postgres', 'export'],
  ];
  it.each(cases)('%s → %s by %s', { timeout: 60_000 }, async (from, to, how) => {
    const server = await move(from, to, how);
    let moved: Answers;
    try {
      moved = await readProject(server, sources[from].written);
    } finally {
      await server.close();
    }
    const source = sources[from].answers;
    if (from === 'postgres' || to === 'sqlite') {
      expect(moved).toEqual(source);
      return;
    }
    expect(moved.filter(([name]) => fromRows(name))).toEqual(source.filter(([name]) => fromRows(name)));
    const others = (answers: Answers) => withoutServerChoices(answers.filter(([name]) => !fromRows(name)));
    expect(others(moved)).toEqual(others(sources.postgres.answers));
  });
});
