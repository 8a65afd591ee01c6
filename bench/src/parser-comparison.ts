// `pnpm --filter @weft/bench bench:parsers`: why the trajectory log keeps its own incremental JSON
// parser (apps/server/src/http/body/json-stream-parser.ts) instead of a maintained streaming
// parser. Both parse the same ART log bodies into one trajectory at a time; each is timed as a
// ratio to JSON.parse of the whole text in the same run (the log's target is ≥ 0.25× JSON.parse
// for the whole ingest, database included). Prints a Markdown table for BENCHMARKS.md.
import { JSONParser } from '@streamparser/json';
import { parseJsonChunks } from '@weft/server/src/http/body/parse-json-chunks.ts';
import { JsonStreamParser, type PathKey } from '@weft/server/src/http/body/json-stream-parser.ts';
import { artLogBody } from './fixtures/art-payload.ts';

const MB = Number(process.env.PARSERS_MB ?? 16);
const ROUNDS = 3;
const CHUNK = 1 << 20;

const TG = 'trajectory_groups';
const isGroup = (p: readonly PathKey[]) => p.length === 2 && p[0] === TG && typeof p[1] === 'number';
const isTrajectory = (p: readonly PathKey[]) =>
  p.length === 4 && isGroup(p.slice(0, 2)) && p[2] === 'trajectories' && typeof p[3] === 'number';

function weft(text: string): number {
  let trajectories = 0;
  const parser = new JsonStreamParser({
    maxDepth: 512,
    detach: (p) => (p.length === 1 && typeof p[0] === 'string') || isGroup(p) || isTrajectory(p),
    raw: (p) => !(p.length === 1 && p[0] === TG) && !isGroup(p) && !(p.length === 3 && p[2] === 'trajectories'),
    onValue: (p) => {
      if (isTrajectory(p)) trajectories++;
    },
  });
  for (let i = 0; i < text.length; i += CHUNK) parser.write(text.slice(i, i + CHUNK));
  parser.end();
  return trajectories;
}

/** As every JSON body over 64 kB is read: body/parse-json-chunks.ts itself, yields included. */
async function weftWhole(text: string): Promise<number> {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) chunks.push(bytes.subarray(i, i + CHUNK));
  const root = (await parseJsonChunks(chunks)) as { trajectory_groups: Array<{ trajectories: unknown[] }> };
  return root.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
}

function streamparser(text: string): number {
  let trajectories = 0;
  const parser = new JSONParser({ paths: ['$.trajectory_groups.*.trajectories.*'], keepStack: false });
  parser.onValue = () => {
    trajectories++;
  };
  for (let i = 0; i < text.length; i += CHUNK) parser.write(text.slice(i, i + CHUNK));
  return trajectories;
}

function wholeParse(text: string): number {
  const body = JSON.parse(text) as { trajectory_groups: Array<{ trajectories: unknown[] }> };
  return body.trajectory_groups.reduce((n, g) => n + g.trajectories.length, 0);
}

async function time(run: (text: string) => number | Promise<number>, text: string): Promise<{ ms: number; trajectories: number }> {
  const t0 = performance.now();
  const trajectories = await run(text);
  return { ms: performance.now() - t0, trajectories };
}

const text = artLogBody(MB);
const sums = { parse: 0, weft: 0, weftWhole: 0, streamparser: 0 };
let counts: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternating, so drift in the machine's speed falls on all of them alike.
  const p = await time(wholeParse, text);
  const w = await time(weft, text);
  const a = await time(weftWhole, text);
  const s = await time(streamparser, text);
  sums.parse += p.ms;
  sums.weft += w.ms;
  sums.weftWhole += a.ms;
  sums.streamparser += s.ms;
  counts = [p.trajectories, w.trajectories, a.trajectories, s.trajectories];
}
if (new Set(counts).size !== 1) throw new Error(`the parsers disagree on the trajectory count: ${counts.join(', ')}`);
const mbps = (ms: number) => (text.length / 1024 / 1024 / (ms / ROUNDS / 1000)).toFixed(0);
console.log(`| parser (${MB} MB ART log body, ${counts[0]} trajectories, mean of ${ROUNDS}) | MB/s | ratio to JSON.parse |`);
console.log('|---|---:|---:|');
console.log(`| JSON.parse of the whole body (baseline) | ${mbps(sums.parse)} | 1.00× |`);
console.log(`| Weft's incremental parser (one trajectory at a time) | ${mbps(sums.weft)} | ${(sums.parse / sums.weft).toFixed(2)}× |`);
console.log(
  `| Weft's incremental parser building the whole body (JSON bodies over 64 kB) | ${mbps(sums.weftWhole)} | ${(sums.parse / sums.weftWhole).toFixed(2)}× |`,
);
console.log(
  `| @streamparser/json 0.0.26, path $.trajectory_groups.*.trajectories.* | ${mbps(sums.streamparser)} | ${(sums.parse / sums.streamparser).toFixed(2)}× |`,
);
