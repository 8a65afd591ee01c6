// A trajectory log body past its first MB is spooled to an unlinked file in TMPDIR while it is read
// (http/body/spooled-body.ts), so a 64 MB log does not sit in memory whole. What must hold: the
// log is stored exactly as a body read in memory is, no file is left behind, no descriptor leaks
// on any path (stored, refused, aborted), and a disk that cannot take the body answers 503 at once.
import { request } from 'node:http';
import { watch, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '@weft/store';
import { startTestServer, type TestServer } from './test-server.ts';

let server: TestServer;
let db: Db;
let modelId: string;
/** TMPDIR while a test runs: a fresh directory, so the spool's files are the only ones in it. */
let spoolDir: string;
const savedTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  // LOG_BODY_LIMIT is small enough to be passed in a test, large enough for a spooled body.
  server = await startTestServer('sqlite', { LOG_BODY_LIMIT: '8mb' });
  db = await openDatabase(server.databaseUrl);
  const res = await fetch(`${server.url}/v1/preview/models`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ entity: 'acme', project: 'spool', name: 'm', base_model: 'b' }),
  });
  modelId = ((await res.json()) as { id: string }).id;
  spoolDir = mkdtempSync(join(tmpdir(), 'weft-spool-test-'));
  // Read by os.tmpdir() on every call: from here on the server spools into spoolDir.
  process.env.TMPDIR = spoolDir;
});
afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await db?.close();
  await server?.close();
  if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/**
 * POSTs over a connection of its own (closed after the answer), so the descriptors counted below
 * are not kept-alive sockets. `abortAfter`: send that many bytes, wait until the server holds a
 * spool file, then hang up.
 */
function post(body: Buffer, opts: { headers?: Record<string, string>; key?: string; model?: string; abortAfter?: number } = {}) {
  const url = new URL(`${server.url}/v1/preview/models/${opts.model ?? modelId}/log`);
  return new Promise<Answer | 'aborted' | 'reset'>((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${opts.key ?? server.aliceKey}`,
        'content-type': 'application/json',
        ...(opts.headers?.['transfer-encoding'] ? {} : { 'content-length': body.length }),
        ...opts.headers,
      },
      signal: AbortSignal.timeout(20_000),
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
    });
    // A refusal mid-body (413) may close the connection before the client is done sending.
    const reset = (err: Error) => ['ECONNRESET', 'EPIPE'].includes((err as { code?: string }).code ?? '');
    req.on('error', (err) => (opts.abortAfter !== undefined || reset(err) ? resolve('reset') : reject(err)));
    if (opts.abortAfter === undefined) return void req.end(body);
    req.write(body.subarray(0, opts.abortAfter), () => {
      void until(() => spoolFds().length > 0).then(() => {
        req.destroy();
        resolve('aborted');
      }, reject);
    });
  });
}

/** What the process's descriptors are open on (the server runs in this process). */
function fdLinks(): string[] {
  const links: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      links.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // closed since it was listed (the listing's own descriptor among them)
    }
  }
  return links;
}

/** Descriptors open on a spool file (its name is gone: the link reads "… (deleted)"). */
const spoolFds = () => fdLinks().filter((link) => link.startsWith(join(spoolDir, 'weft-body-')));

/** Every descriptor but the database's, which SQLite opens and closes on its own schedule (its WAL). */
const openFds = () => fdLinks().filter((link) => !link.startsWith(databaseDir())).length;
const databaseDir = () => server.databaseUrl.replace(/^sqlite:/, '').replace(/[^/]+$/, '');

async function until(done: () => boolean, ms = 5000): Promise<void> {
  for (const deadline = Date.now() + ms; !done(); await sleep(10)) if (Date.now() > deadline) throw new Error('timed out');
}

const rows = async () => ({
  logs: (await db.kysely.selectFrom('trajectory_logs').select('id').execute()).length,
  trajectories: (await db.kysely.selectFrom('trajectories').select('log_id').execute()).length,
});

/** Text of 3- and 4-byte characters: a read boundary of the file almost always splits one. */
const wide = (chars: number, seed: number) =>
  Array.from({ length: chars }, (_, i) => (i % 3 === 0 ? '🎉' : '日本語'[(i + seed) % 3])).join('');

/** A log of `n` trajectories of about `bytesEach` bytes, each with its own text. */
function logBody(n: number, bytesEach: number, split = 'val') {
  const trajectories = Array.from({ length: n }, (_, t) => ({
    reward: t / n,
    messages_and_choices: [{ role: 'user', content: `${t}:${wide(Math.floor(bytesEach / 3.3), t)}` }],
  }));
  return { trajectory_groups: [{ trajectories }], split };
}

async function storedTrajectories(logId: string) {
  const res = await fetch(`${server.url}/v1/preview/models/${modelId}/trajectories?limit=100`, {
    headers: { authorization: `Bearer ${server.aliceKey}` },
  });
  const page = (await res.json()) as { data: Array<{ log_id: string; trajectory: Record<string, unknown> }> };
  return page.data.filter((d) => d.log_id === logId).map((d) => d.trajectory);
}

describe('trajectory log bodies spooled to TMPDIR', () => {
  it('stores a 5 MB body as sent (every character across every read boundary), and leaves no file behind', async () => {
    const sent = logBody(10, 500_000);
    const body = Buffer.from(JSON.stringify(sent));
    expect(body.length).toBeGreaterThan(5_000_000);
    // A file is created and unlinked in TMPDIR: the watcher sees both, the directory stays empty.
    const seen: string[] = [];
    const watcher = watch(spoolDir, (_event, name) => seen.push(String(name)));
    const answer = await post(body);
    await until(() => seen.some((name) => name.startsWith('weft-body-')), 2000).finally(() => watcher.close());
    expect(answer).toMatchObject({ status: 200, json: { trajectory_count: 10 } });
    expect(readdirSync(spoolDir)).toEqual([]);
    const stored = await storedTrajectories((answer as Answer).json.log_id as string);
    expect(stored.map((t) => ({ reward: t.reward, messages_and_choices: t.messages_and_choices }))).toEqual(
      sent.trajectory_groups[0]!.trajectories,
    );
  });

  it('stores the same rows and digest whether the body was spooled or held in memory', async () => {
    const content = logBody(4, 100_000);
    const small = Buffer.from(JSON.stringify(content));
    // The same JSON with 3 MB of whitespace between its tokens: spooled.
    const large = Buffer.from(JSON.stringify(content, null, ' '.repeat(10)).replace(/\n/g, `\n${' '.repeat(100_000)}`));
    expect(small.length).toBeLessThan(1 << 20);
    expect(large.length).toBeGreaterThan(3 << 20);
    const [a, b] = [(await post(small)) as Answer, (await post(large)) as Answer];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.table_digest).toBe(a.json.table_digest);
    expect(b.json.metrics).toEqual(a.json.metrics);
    expect(await storedTrajectories(b.json.log_id as string)).toEqual(await storedTrajectories(a.json.log_id as string));
  });

  it('leaks no descriptor on any path: stored, refused (JSON, schema, 404, 403, 413), aborted mid-body', async () => {
    const good = Buffer.from(JSON.stringify(logBody(4, 500_000)));
    const badJson = Buffer.concat([good.subarray(0, good.length - 2), Buffer.from('!}')]);
    const badSchema = Buffer.from(JSON.stringify(logBody(4, 500_000)).replace('"reward":0.75', '"reward":"high"'));
    const tooLarge = Buffer.from(JSON.stringify(logBody(30, 300_000)));
    // Past the part held in memory, so that the file is open when the client hangs up.
    const abortAt = Math.floor(good.length * 0.75);
    expect(abortAt).toBeGreaterThan(1 << 20);
    const before = { fds: openFds(), rows: await rows() };
    for (let round = 0; round < 3; round++) {
      expect(await post(good)).toMatchObject({ status: 200 });
      expect(await post(gzipSync(good), { headers: { 'content-encoding': 'gzip' } })).toMatchObject({ status: 200 });
      expect(await post(badJson)).toMatchObject({ status: 422, json: { detail: [{ type: 'json_invalid' }] } });
      expect(await post(badSchema)).toMatchObject({
        status: 422,
        json: { detail: [{ loc: ['body', 'trajectory_groups', '0', 'trajectories', '3', 'reward'] }] },
      });
      expect(await post(good, { model: '01a2196e-0000-7000-8000-000000000000' })).toMatchObject({ status: 404 });
      expect(await post(good, { key: server.bobKey })).toMatchObject({ status: 403 });
      // Chunked, so the limit is only found past the first MB, once the file is open.
      expect(await post(tooLarge, { headers: { 'transfer-encoding': 'chunked' } })).toSatisfy(
        (a: Answer | string) => a === 'reset' || (a as Answer).status === 413,
      );
      // Waits until the server holds the file (which spoolFds must see), then hangs up.
      expect(await post(good, { abortAfter: abortAt })).toBe('aborted');
    }
    await until(() => spoolFds().length === 0 && openFds() <= before.fds);
    expect(spoolFds()).toEqual([]);
    // Fewer is fine (kept-alive sockets of earlier tests time out); more would be a leak.
    expect(openFds()).toBeLessThanOrEqual(before.fds);
    expect(await rows()).toEqual({ logs: before.rows.logs + 6, trajectories: before.rows.trajectories + 24 });
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it('answers 503 at once when TMPDIR cannot take the body, and still stores a body that fits in memory', async () => {
    const before = await rows();
    process.env.TMPDIR = join(spoolDir, 'missing');
    try {
      const body = Buffer.from(JSON.stringify(logBody(4, 500_000)));
      for (const answer of [await post(body), await post(gzipSync(body), { headers: { 'content-encoding': 'gzip' } })]) {
        expect(answer).toEqual({
          status: 503,
          json: { reason: expect.stringContaining('(ENOENT)'), error_type: 'ServiceUnavailable' },
        });
      }
      expect(await rows()).toEqual(before);
      expect(await post(Buffer.from(JSON.stringify(logBody(2, 1000))))).toMatchObject({ status: 200 });
    } finally {
      process.env.TMPDIR = spoolDir;
    }
    expect(spoolFds()).toEqual([]);
  });
});
