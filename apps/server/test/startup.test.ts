// What a user sees when the setup is wrong: the server refuses to start, with a clear message.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

const silent = pino({ level: 'silent' });

describe('startServer', () => {
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
