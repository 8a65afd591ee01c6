// `weft migrate`, `weft migrate status` and `weft migrate --dry-run` on a fresh database of each
// kind: status lists every migration pending, the dry run prints their SQL and runs none of it,
// migrate says what it applied, and a second run says the schema is up to date.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFor } from '@weft/store';
import { describeIfPostgres } from '@weft/store/testing';
import { loadConfig } from '../config.ts';
import { migrateCommand, migrateStatusCommand } from './migrate-command.ts';

const NAMES = Object.keys(migrationsFor('sqlite'));

function run(url: string) {
  const config = loadConfig({ DATABASE_URL: url });
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } } };
  };
  return {
    async status() {
      const { out, io: i } = io();
      return { code: await migrateStatusCommand(config, i), ...out };
    },
    async migrate(dryRun = false) {
      const { out, io: i } = io();
      return { code: await migrateCommand(config, { dryRun }, i), ...out };
    },
  };
}

function migrationCommands(getUrl: () => string) {
  it('lists every migration pending on a fresh database', async () => {
    const out = await run(getUrl()).status();
    expect(out.code).toBe(0);
    for (const name of NAMES) expect(out.stdout).toMatch(new RegExp(`^pending  ${name}\\s+-$`, 'm'));
    expect(out.stdout).toContain(`: 0 applied, ${NAMES.length} pending\n`);
  });

  it('prints the SQL of the pending migrations on --dry-run, and runs none of it', async () => {
    const out = await run(getUrl()).migrate(true);
    expect(out.code).toBe(0);
    for (const name of NAMES) expect(out.stdout).toContain(`-- ${name}\n`);
    expect(out.stdout).toMatch(/^create table "calls" \(/m);
    expect(out.stderr).toContain(`${NAMES.length} pending migrations; nothing was run (dry run)`);
    expect((await run(getUrl()).status()).stdout).toContain(`: 0 applied, ${NAMES.length} pending\n`);
  });

  it('says what it applied, then that the schema is up to date', async () => {
    const first = await run(getUrl()).migrate();
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${NAMES.map((n) => `applied ${n}\n`).join('')}${first.stdout.split('\n').at(-2)}\n`);
    expect(first.stdout).toContain(`${NAMES.length} migrations applied, up to date\n`);
    const again = await run(getUrl()).migrate();
    expect(again.stdout).toMatch(/^[^\n]*: up to date\n$/);
    const status = await run(getUrl()).status();
    for (const name of NAMES)
      expect(status.stdout).toMatch(new RegExp(`^applied  ${name}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`, 'm'));
    expect(status.stdout).toContain(`: ${NAMES.length} applied, 0 pending\n`);
    const dry = await run(getUrl()).migrate(true);
    expect(dry).toMatchObject({ code: 0, stdout: '' });
    expect(dry.stderr).toContain('up to date; nothing to run');
  });
}

describe('weft migrate [sqlite file]', () => {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'weft-migrate-')), 'weft.sqlite')}`;
  migrationCommands(() => url);
});

describeIfPostgres('weft migrate [postgres]', migrationCommands);
