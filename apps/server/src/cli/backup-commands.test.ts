// `weft backup | restore` as typed: usage errors exit 2, an existing --out is kept unless --force,
// a restore refuses a database holding rows and a backup from a newer schema (exit 1 with a
// message), and a backup's copy restores. (Under write load: test/backup-under-load.test.ts;
// PostgreSQL: test/pg-dump-round-trip.test.ts.)
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { runDemo } from '../demo/run-demo.ts';
import { weftInProcess } from '../../test/weft-in-process.ts';

const weft = (...argv: string[]) => weftInProcess(argv);

describe('weft backup, restore', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-backup-cli-'));
    vi.stubEnv('WEFT_CWD', dir);
    vi.stubEnv('DATABASE_URL', `sqlite:${join(dir, 'source.sqlite')}`);
    vi.stubEnv('LOG_LEVEL', 'silent');
    const io = { stdout: { write: () => true }, stderr: { write: () => true } };
    expect(await runDemo(loadConfig(), 'acme/demo', io)).toBe(0);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad usage with exit code 2', async () => {
    expect((await weft('backup')).code).toBe(2);
    expect((await weft('restore')).code).toBe(2);
    expect((await weft('backup', '--out', 'a', '--bogus')).code).toBe(2);
  });

  it('backs up, keeps an existing file unless --force, and restores into an empty database only', async () => {
    const first = await weft('backup', '--out', 'b.sqlite');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^SHA-256: [0-9a-f]{64}$/m);
    expect(first.stderr).toMatch(/^backup database: [\d,]+ pages in/m);
    const again = await weft('backup', '--out', 'b.sqlite');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists: name another file with --out, or replace it with --force/);
    expect((await weft('backup', '--out', 'b.sqlite', '--force')).code).toBe(0);
    expect(statSync(join(dir, 'b.sqlite')).size).toBeGreaterThan(0);

    vi.stubEnv('DATABASE_URL', `sqlite:${join(dir, 'restored.sqlite')}`);
    const restored = await weft('restore', '--from', 'b.sqlite');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/already at this version/);
    const twice = await weft('restore', '--from', 'b.sqlite');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/is not empty \(its table \w+ holds rows\): restore into an empty database/);
  });

  it('refuses a backup from a newer schema, and a file that is not a database', async () => {
    const newer = await openDatabase(`sqlite:${join(dir, 'b.sqlite')}`);
    try {
      await newer.kysely
        .insertInto('kysely_migration' as never)
        .values({ name: '9999-from-the-future', timestamp: '2099-01-01' })
        .execute();
    } finally {
      await newer.close();
    }
    vi.stubEnv('DATABASE_URL', `sqlite:${join(dir, 'other.sqlite')}`);
    const refused = await weft('restore', '--from', 'b.sqlite');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/comes from a newer Weft \(its schema has 9999-from-the-future/);
    expect(existsSync(join(dir, 'other.sqlite'))).toBe(false);
    writeFileSync(join(dir, 'notes.txt'), 'not a database, but long enough to have a header of sorts\n'.repeat(20));
    const notDb = await weft('restore', '--from', 'notes.txt');
    expect(notDb.code).toBe(1);
    expect(notDb.stderr).toMatch(/not a SQLite database|cannot open it as a SQLite database/);
  });
});
