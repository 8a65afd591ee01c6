// `weft export | import | copy` as typed: help, usage errors (exit 2, nothing done), operator
// mistakes (exit 1 with a message, no stack), and a SQLite round trip through the command line
// with plain progress lines on a non-terminal. (SQLite → PostgreSQL: test/move-to-postgres.test.ts.)
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COPIED_TABLES } from '@weft/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { runDemo } from '../demo/run-demo.ts';
import { weftInProcess } from '../../test/weft-in-process.ts';

const weft = (...argv: string[]) => weftInProcess(argv);

describe('weft export, import, copy', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-transfer-cli-'));
    vi.stubEnv('WEFT_CWD', dir);
    vi.stubEnv('DATABASE_URL', 'sqlite:source.sqlite');
    vi.stubEnv('LOG_LEVEL', 'silent');
    const io = { stdout: { write: () => true }, stderr: { write: () => true } };
    expect(await runDemo(loadConfig(), 'acme/demo', io)).toBe(0);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });

  it('documents each command', async () => {
    const top = await weft('--help');
    for (const command of ['export', 'import', 'copy']) expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    const help = {
      export: (await weft('export', '--help')).stdout,
      import: (await weft('import', '--help')).stdout,
      copy: (await weft('copy', '--help')).stdout,
    };
    expect(help.export).toMatch(/--project <entity\/project>[\s\S]*--out <file>[\s\S]*Examples:/);
    expect(help.import).toMatch(/Usage: weft import \[options\] <file>/);
    expect(help.copy).toMatch(/--from <url>[\s\S]*--to <url>[\s\S]*--batch-size <rows>[\s\S]*--no-resume/);
  });

  it('refuses bad usage with exit code 2, doing nothing', async () => {
    for (const [argv, message] of [
      [['copy'], "required option '--to <url>' not specified"],
      [['copy', '--to', 'mysql://db/x'], 'Unsupported database URL (scheme "mysql:")'],
      [['copy', '--to', 'sqlite:x.sqlite', '--batch-size', '0'], 'expected a whole number of rows from 1 to 100000'],
      [['export', '--project', 'acme'], 'expected <entity>/<project>'],
      [['import'], "missing required argument 'file'"],
    ] as const) {
      const out = await weft(...argv);
      expect(out.code, argv.join(' ')).toBe(2);
      expect(out.stderr).toContain(message);
    }
    expect(existsSync(join(dir, 'x.sqlite'))).toBe(false);
  });

  it('fails with a message, and no stack, on what the operator can fix', async () => {
    const missing = await weft('import', 'nowhere.tar.gz');
    expect(missing).toMatchObject({ code: 1, stderr: `Error: ${join(dir, 'nowhere.tar.gz')}: no such file.\n` });
    writeFileSync(join(dir, 'taken.tar.gz'), 'x');
    expect((await weft('export', '--out', 'taken.tar.gz')).stderr).toMatch(/taken\.tar\.gz exists: name another file with --out/);
    expect((await weft('export', '--project', 'acme/nothing')).stderr).toBe(
      'Error: Project "acme/nothing" holds no data in this database.\n',
    );
    expect(await weft('copy', '--to', 'sqlite:source.sqlite')).toMatchObject({ code: 1, stderr: expect.stringMatching(/same database/) });
    expect((await weft('copy', '--from', 'sqlite:absent.sqlite', '--to', 'sqlite:b.sqlite')).stderr).toBe(
      `Error: ${join(dir, 'absent.sqlite')}: no such SQLite database (set DATABASE_URL, or --from for copy).\n`,
    );
    expect(existsSync(join(dir, 'absent.sqlite'))).toBe(false);
    const notTar = await weft('import', 'taken.tar.gz');
    expect(notTar.code).toBe(1);
    expect(notTar.stderr).toMatch(/^Error: .*taken\.tar\.gz is damaged or incomplete, or not a \.tar\.gz/);
    expect(notTar.stderr).not.toMatch(/\n\s+at /);
  });

  it('exports a project to a file named after it, imports it elsewhere, and copies the deployment', async () => {
    const exported = await weft('export', '--project', 'acme/demo');
    expect(exported.code, exported.stderr).toBe(0);
    const file = readdirSync(dir).find((f) => /^weft-acme-demo-\d{8}-\d{6}\.tar\.gz$/.test(f));
    expect(file).toBeDefined();
    expect(exported.stdout).toMatch(/^calls\s+48$/m);
    // Output is not a terminal: one plain line per table.
    expect(exported.stderr).toMatch(/^export trajectories: 352 rows in [\d.]+ s/m);

    vi.stubEnv('DATABASE_URL', 'sqlite:imported.sqlite');
    const imported = await weft('import', file!);
    vi.stubEnv('DATABASE_URL', 'sqlite:source.sqlite');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^trajectories\s+352\s+352$/m);
    expect(imported.stderr).toMatch(/^verify trajectories: 352 rows/m);

    const copied = await weft('copy', '--from', 'sqlite:imported.sqlite', '--to', 'sqlite:copy.sqlite', '--batch-size', '10');
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stderr).toContain(`Copying sqlite:${join(dir, 'imported.sqlite')} → sqlite:${join(dir, 'copy.sqlite')}`);
    expect(copied.stdout).toMatch(/^rows\s+401\s+401$/m);
    expect(copied.stdout).toContain(`Verified: counts and checksums of ${COPIED_TABLES.length} tables match`);
  });
});
