// Scenario 1: POST /call/read at 32 connections against a bare node:http server and a bare
// Express 5 route answering the same call (the bytes Weft answered), and that route running the
// statement Weft's store runs for the call (the floor of reading it from the database), each in
// its own process. Two alternating rounds, so drift on a noisy machine hits all four alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '@weft/store';
import type * as T from '@weft/types';
import { captureExecuted } from '../direct-sql.ts';
import { checkOnce, measureHttp, type Figure } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { CALL_ID, PROJECTS } from '../seed/spec.ts';
import { spawnServer, type ServerProcess } from '../servers/spawn.ts';
import { startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const CONNECTIONS = 32;

export async function callReadScenario(ctx: RunContext): Promise<ScenarioResult> {
  const body = JSON.stringify({ project_id: PROJECTS.calls, id: CALL_ID });
  const servers: ServerProcess[] = [];
  try {
    const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
    servers.push(weft);
    const weftTarget = { url: `${weft.url}/call/read`, headers: ctx.creds.headers, body };
    const constant = await checkOnce(weftTarget);
    const constantFile = join(ctx.runDir, 'call.json');
    writeFileSync(constantFile, constant);
    const statementFile = join(ctx.runDir, 'call-read-statement.json');
    writeFileSync(statementFile, JSON.stringify(await callReadStatement(ctx.databaseUrl)));
    const http = await spawnServer('http', { BENCH_CONSTANT_FILE: constantFile });
    const express = await spawnServer('express', { BENCH_CONSTANT_FILE: constantFile });
    const floor = await spawnServer('express-sql', {
      BENCH_CONSTANT_FILE: constantFile,
      BENCH_STATEMENT_FILE: statementFile,
      BENCH_DATABASE_URL: ctx.databaseUrl,
    });
    servers.push(http, express, floor);
    const targets = {
      weft: weftTarget,
      http: { ...weftTarget, url: `${http.url}/call/read` },
      express: { ...weftTarget, url: `${express.url}/call/read` },
      floor: { ...weftTarget, url: `${floor.url}/call/read` },
    };
    for (const t of Object.values(targets))
      if ((await checkOnce(t)) !== constant) throw new Error(`${t.url} answers other bytes than Weft`);

    const rounds: Record<keyof typeof targets, Figure[]> = { weft: [], http: [], express: [], floor: [] };
    for (let round = 0; round < 2; round++) {
      for (const name of ['weft', 'express', 'floor', 'http'] as const) {
        say(`  call/read round ${round + 1}: ${name}`);
        rounds[name].push(await measureHttp(targets[name], { connections: CONNECTIONS, duration: ctx.seconds, warmup: ctx.quick ? 1 : 2 }));
      }
    }
    const rate = (name: keyof typeof targets) => rounds[name].reduce((s, f) => s + f.rate, 0) / rounds[name].length;
    const weftRate = rate('weft');
    const expressRate = rate('express');
    const httpRate = rate('http');
    const floorRate = rate('floor');
    return {
      id: 'call-read',
      title: '1. POST /call/read, 32 connections',
      lines: [
        {
          measure: 'Weft vs bare Express 5 route',
          value: fmt.rate(weftRate),
          baseline: `Express: ${fmt.rate(expressRate)}`,
          ratio: weftRate / expressRate,
          target: { op: '>=', value: 0.8 },
        },
        {
          measure: 'Weft vs the floor: a bare Express 5 route running the same statement',
          value: fmt.rate(weftRate),
          baseline: `Express + statement: ${fmt.rate(floorRate)}`,
          ratio: weftRate / floorRate,
        },
        {
          measure: 'bare Express 5 route with the statement vs without',
          value: fmt.rate(floorRate),
          baseline: `Express: ${fmt.rate(expressRate)}`,
          ratio: floorRate / expressRate,
        },
        {
          measure: 'Weft vs bare node:http',
          value: fmt.rate(weftRate),
          baseline: `node:http: ${fmt.rate(httpRate)}`,
          ratio: weftRate / httpRate,
        },
      ],
      notes: [
        `Response: ${constant.length} bytes. The floor runs the statement Weft's store ran for the call (captured), prepared once on a driver of its own (SQLite: read-only better-sqlite3 on the same file; PostgreSQL: a pg pool of 10, Weft's default), and answers the same bytes. Each server is its own process; autocannon runs in the bench process (2 cores: one each). Mean of 2 alternating rounds of ${ctx.seconds} s.`,
      ],
      raw: { connections: CONNECTIONS, responseBytes: constant.length, rounds },
    };
  } finally {
    for (const s of servers) await s.stop();
  }
}

/** The statement Weft's store runs for the scenario's call/read, with the values it ran with. */
async function callReadStatement(databaseUrl: string): Promise<{ sql: string; parameters: unknown[] }> {
  const db = await openDatabase(databaseUrl);
  try {
    const req: T.CallReadReq = { project_id: PROJECTS.calls, id: CALL_ID };
    const ran = await captureExecuted(db, (store) => store.callRead(req, { user: 'bench' }));
    if (ran.length !== 1) throw new Error(`call/read ran ${ran.length} statements, the floor expects one`);
    return { sql: ran[0]!.sql, parameters: [...ran[0]!.parameters] };
  } finally {
    await db.close();
  }
}
