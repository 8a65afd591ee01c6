// Scenario 5: POST /table/create of 100,000 evaluation rows, in rows/s, against computing their
// digests alone with @weft/core (rowDigest of each row's lossless parse, then tableDigest), the
// least any server must do; and against the database's own pace for the same writes (the floor,
// table-create-floor.ts). Every request creates a new table (a fresh salt), so none is
// answered from the idempotent "already stored" path.
import { parseLossless, rowDigest, tableDigest, type JsonNode } from '@weft/core';
import { evalRow } from '../fixtures/eval-rows.ts';
import { measureLoop, timeOnce } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { PROJECTS } from '../seed/spec.ts';
import { startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';
import { tableCreateFloorMs } from './table-create-floor.ts';

const ROWS = 100_000;

function body(salt: number): string {
  const rows = Array.from({ length: ROWS }, (_, i) => evalRow(i, salt));
  return JSON.stringify({ table: { project_id: PROJECTS.tables, rows } });
}

export async function tableCreateScenario(ctx: RunContext): Promise<ScenarioResult> {
  const requests = ctx.quick ? 1 : 3;
  // Salts unique to this run: a database reused across runs must not already hold the tables.
  const base = 1000 + (Date.now() % 1_000_000) * 10;
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  let bodyBytes = 0;
  try {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const text = body(base + i);
      bodyBytes = Buffer.byteLength(text);
      say(`  table/create ${i + 1}/${requests}: ${ROWS.toLocaleString('en-US')} rows, ${(bodyBytes / 1048576).toFixed(1)} MB`);
      times.push(
        await timeOnce(async () => {
          const res = await fetch(`${weft.url}/table/create`, { method: 'POST', headers: ctx.creds.headers, body: text });
          const answer = (await res.json()) as { row_digests?: unknown[] };
          if (res.status !== 200 || answer.row_digests?.length !== ROWS) throw new Error(`table/create answered ${res.status}`);
        }),
      );
    }
    const createMs = times.reduce((s, t) => s + t, 0) / times.length;
    say('  table/create: the same statements on a plain connection (the floor)');
    const floorMs = await tableCreateFloorMs(ctx.databaseUrl, body(base + requests), requests);
    const rows = (parseLossless(body(base)) as { table: { rows: JsonNode[] } }).table.rows;
    say('  table/create: digests alone');
    const digests = await measureLoop(() => tableDigest(rows.map((r) => rowDigest(r))), { minMs: 3000, minCount: requests, maxCount: 20 });
    const createRate = (ROWS * 1000) / createMs;
    const digestRate = (ROWS * 1000) / digests.meanMs;
    return {
      id: 'table-create',
      title: '5. POST /table/create, 100,000 rows',
      lines: [
        {
          measure: 'Weft rows/s vs digests alone',
          value: fmt.rate(createRate, 'rows/s'),
          baseline: `digests: ${fmt.rate(digestRate, 'rows/s')}`,
          ratio: createRate / digestRate,
          target: { op: '>=', value: 0.3 },
        },
        {
          measure: 'Weft vs the database floor',
          value: fmt.rate(createRate, 'rows/s'),
          baseline: `floor: ${fmt.rate((ROWS * 1000) / floorMs, 'rows/s')}`,
          ratio: floorMs / createMs,
        },
      ],
      notes: [
        `Body ${(bodyBytes / 1048576).toFixed(1)} MB (BODY_LIMIT raised to 128mb for it); mean of ${requests} creates, each a new table, answered after commit.`,
        `Floor: the statements the store runs for such a create, captured and run again on a plain ${ctx.databaseUrl.startsWith('sqlite:') ? 'better-sqlite3' : 'pg'} connection in one transaction, for a new project each time (mean of ${requests}).`,
      ],
      raw: { rows: ROWS, bodyBytes, createMs: times, digestMs: digests.meanMs, floorMs, createRate, digestRate },
    };
  } finally {
    await weft.stop();
  }
}
