// The router file's life in a running server, with a stand-in loader and router: loaded at start
// (a bad file refuses to start), reloaded on SIGHUP and on a change of the file, a bad new file
// keeping the configuration in use, an unchanged file not reloaded.
import { EventEmitter } from 'node:events';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Router, RouterConfig, RouterLimits } from '@weft/router';
import { startRouterRuntime, type RouterRuntime } from './router-runtime.ts';

interface Line {
  msg: string;
  problems?: string[];
  why?: string;
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'weft-router-runtime-'));
  const file = join(dir, 'router.yaml');
  const lines: Line[] = [];
  const waiters: Array<() => void> = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
        for (const w of waiters.splice(0)) w();
        done();
      },
    }),
  );
  const nextLine = (match: (l: Line) => boolean) =>
    new Promise<Line>((resolve) => {
      const check = () => {
        const found = lines.find(match);
        if (found) resolve(found);
        else waiters.push(check);
      };
      check();
    });
  // The stand-in format: one model id per line; "!" anywhere is a problem.
  const load = async (path: string): Promise<RouterConfig> => {
    const text = await readFile(path, 'utf8');
    if (text.includes('!')) throw new Error(`${path}:1:1 models: "!" is not a model id`);
    const ids = text.split('\n').filter(Boolean);
    return {
      source: path,
      providers: [],
      models: ids.map((id) => ({ id, endpoints: [] }) as unknown as RouterConfig['models'][number]),
      routing: {} as RouterConfig['routing'],
      limits: { per_key: {}, per_project: {} },
      projects: {},
      record_calls: true,
    };
  };
  const reloads: RouterConfig[] = [];
  const updates: RouterConfig['limits'][] = [];
  let closed = false;
  const create = (first: RouterConfig): Router => {
    let config = first;
    return {
      get config() {
        return config;
      },
      models: () => config.models.map((m) => ({ id: m.id }) as never),
      reload(next: RouterConfig) {
        config = next;
        reloads.push(next);
      },
      close: async () => void (closed = true),
    } as unknown as Router;
  };
  const createLimits = (): RouterLimits => ({
    admit: async () => undefined,
    account: async () => undefined,
    update: (l) => void updates.push(l),
  });
  const signals = new EventEmitter();
  const start = (watchDebounceMs = 0) => startRouterRuntime({ file, logger, load, create, createLimits, signals, watchDebounceMs });
  const ids = (rt: RouterRuntime) => rt.router().config.models.map((m) => m.id);
  return {
    dir,
    file,
    lines,
    nextLine,
    reloads,
    updates,
    signals,
    start,
    ids,
    closed: () => closed,
  };
}

describe('router runtime', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('refuses to start on a bad file, naming its problems', async () => {
    const t = setup();
    writeFileSync(t.file, 'a\n!\n');
    await expect(t.start()).rejects.toThrow(/router\.yaml:1:1 models/);
    rmSync(t.dir, { recursive: true });
  });

  it('reloads on SIGHUP; a bad new file keeps the configuration in use', async () => {
    const t = setup();
    writeFileSync(t.file, 'a\n');
    const rt = await t.start();
    cleanup = async () => {
      await rt.close();
      rmSync(t.dir, { recursive: true });
    };
    expect(t.ids(rt)).toEqual(['a']);

    writeFileSync(t.file, 'a\nb\n');
    t.signals.emit('SIGHUP');
    await t.nextLine((l) => l.msg === 'router configuration reloaded');
    expect(t.ids(rt)).toEqual(['a', 'b']);
    expect(t.updates).toHaveLength(1);

    writeFileSync(t.file, 'a\n!\n');
    t.signals.emit('SIGHUP');
    const refused = await t.nextLine((l) => l.msg.startsWith('router configuration not reloaded'));
    expect(refused.problems).toEqual([expect.stringMatching(/router\.yaml:1:1 models: "!" is not a model id$/)]);
    expect(t.ids(rt)).toEqual(['a', 'b']);
    expect(t.reloads).toHaveLength(1);

    // SIGHUP reloads even an unchanged file (the operator asked).
    writeFileSync(t.file, 'a\nb\n');
    expect(await rt.reload('test')).toBe(true);
    expect(await rt.reload('test')).toBe(true);
    expect(t.reloads).toHaveLength(3);

    await rt.close();
    cleanup = async () => rmSync(t.dir, { recursive: true });
    expect(t.closed()).toBe(true);
    // Closed: SIGHUP is no longer heard.
    t.signals.emit('SIGHUP');
    expect(t.signals.listenerCount('SIGHUP')).toBe(0);
  });

  it('reloads when the file is replaced, once per new content', async () => {
    const t = setup();
    writeFileSync(t.file, 'a\n');
    const rt = await t.start(20);
    cleanup = async () => {
      await rt.close();
      rmSync(t.dir, { recursive: true });
    };
    // As editors save: a new file renamed over the old one.
    writeFileSync(join(t.dir, 'router.yaml.tmp'), 'a\nc\n');
    renameSync(join(t.dir, 'router.yaml.tmp'), t.file);
    await t.nextLine((l) => l.msg === 'router configuration reloaded' && l.why === 'file changed');
    expect(t.ids(rt)).toEqual(['a', 'c']);
    // The same content written again is no new configuration; a new one is.
    writeFileSync(t.file, 'a\nc\n');
    await t.nextLine((l) => l.msg === 'router file unchanged: nothing to reload');
    expect(t.reloads).toHaveLength(1);
    writeFileSync(t.file, 'a\nc\nd\n');
    await t.nextLine((l) => l.msg === 'router configuration reloaded' && t.reloads.length === 2);
    expect(t.ids(rt)).toEqual(['a', 'c', 'd']);
    expect(t.reloads.map((c) => c.models.length)).toEqual([2, 3]);
  });
});
