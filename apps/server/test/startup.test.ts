// What a user sees when the setup is wrong: the server refuses to start, with a clear message.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '@weft/store';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { freePort } from './faults/kit/free-port.ts';

const silent = pino({ level: 'silent' });

describe('startServer', () => {
  it('stops with the migration that failed, and closes the port it had opened for the start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const file = join(dir, 'weft.sqlite');
    // A file some other program made: the first migration cannot create its table.
    const db = await openDatabase(`sqlite:${file}`);
    await db.kysely.schema.createTable('objects').addColumn('something_else', 'text').execute();
    await db.close();
    const port = await freePort();
    const error = await startServer(loadConfig({ PORT: String(port), DATA_DIR: dir, DATABASE_URL: `sqlite:${file}` }), silent).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/migration "0001-initial" failed on sqlite.*table "objects" already exists/);
    const refused = await fetch(`http://127.0.0.1:${port}/live`).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  it('fails fast, naming host and port, when PostgreSQL is unreachable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const config = loadConfig({ PORT: '0', DATA_DIR: dir, DATABASE_URL: 'postgres://weft:secret@127.0.0.1:1/weft' });
    const started = Date.now();
    const error = await startServer(config, silent).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/127\.0\.0\.1/);
    expect(error?.message).toMatch(/\b1\b/);
    expect(error?.message).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses an AUTH_FILE that does not exist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const config = loadConfig({ PORT: '0', DATA_DIR: dir, AUTH_FILE: join(dir, 'missing.yaml'), DATABASE_URL: 'sqlite::memory:' });
    await expect(startServer(config, silent)).rejects.toThrow(/missing\.yaml/);
  });

  it('names PORT when the port is taken, and closes what it opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as AddressInfo).port);
      const config = loadConfig({ PORT: port, HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: 'sqlite::memory:' });
      await expect(startServer(config, silent)).rejects.toThrow(`cannot listen on 127.0.0.1:${port} is already in use`);
      await expect(startServer(config, silent)).rejects.toThrow(/set PORT to a free port/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('names MODELS_FILE when the catalogue file is missing or broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const missing = join(dir, 'models.json');
    await expect(startServer(loadConfig({ PORT: '0', DATA_DIR: dir, MODELS_FILE: missing }), silent)).rejects.toThrow(
      `MODELS_FILE=${missing}: `,
    );
    writeFileSync(missing, '{"data": [');
    await expect(startServer(loadConfig({ PORT: '0', DATA_DIR: dir, MODELS_FILE: missing }), silent)).rejects.toThrow(
      `MODELS_FILE=${missing}: `,
    );
  });

  it('creates a local key on first start and prints it once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-startup-'));
    const config = loadConfig({ PORT: '0', DATA_DIR: dir });
    const printed: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string) => (printed.push(String(chunk)), true);
    try {
      const first = await startServer(config, silent);
      await first.close();
      const second = await startServer(config, silent);
      await second.close();
    } finally {
      process.stdout.write = write;
    }
    const keys = printed.join('').match(/weft_[A-Za-z0-9_-]+/g) ?? [];
    expect(keys).toHaveLength(1);
    const res = await (async () => {
      const server = await startServer(config, silent);
      try {
        return await fetch(`${server.url}/objs/query`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from(`api:${keys[0]}`).toString('base64')}`, 'content-type': 'application/json' },
          body: JSON.stringify({ project_id: 'anyone/project' }),
        });
      } finally {
        await server.close();
      }
    })();
    expect(res.status).toBe(200);
  });
});
