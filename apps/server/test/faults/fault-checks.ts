// What every fault scenario asserts, once: the process is still alive; while the fault lasted it
// answered only what the spec documents for it (2xx, and the 503/507 a client retries), each
// within the request deadline; once the fault is gone it serves again within 10 s by itself; and
// every write it acknowledged reads back identical, none twice.
import { expect } from 'vitest';
import type { ApiOutcome } from './kit/api-call.ts';
import type { ServerProcess } from './kit/server-process.ts';
import { waitFor } from './kit/wait-for.ts';
import type { WriteLedger } from './kit/write-ledger.ts';

/** REQUEST_TIMEOUT of the scenarios' servers. */
export const DEADLINE_MS = 3000;
/** What a loaded 2-core machine adds to an answer at the deadline (scheduling, the answer itself). */
export const SLACK_MS = 2000;

/** The environment of a scenario's server: a short deadline, a quick stop. */
export const FAULT_ENV = { REQUEST_TIMEOUT: `${DEADLINE_MS}ms`, SHUTDOWN_TIMEOUT: '5s', HEADERS_TIMEOUT: '2s' };

/** The server is alive and answered every attempt with one of `allowed`, each within the deadline. */
export function expectAnsweredWithinDeadline(server: ServerProcess, ledger: WriteLedger, allowed: readonly string[]): void {
  expect(server.alive(), server.stderr().slice(-2000)).toBe(true);
  const labels = [...ledger.labels()].sort();
  expect(
    labels.filter((l) => !allowed.includes(l)),
    JSON.stringify(ledger.statusCounts()),
  ).toEqual([]);
  const slow = ledger.slowerThan(DEADLINE_MS + SLACK_MS);
  expect(slow, JSON.stringify(slow.slice(0, 5))).toEqual([]);
}

/**
 * Serves a read and a write again, within 10 s of the fault's end, with no help. The write goes to
 * a project of its own (`<project>-probe`), so the ledger's project holds only the ledger's writes.
 */
export async function expectRecovers(server: ServerProcess, ledgerProject: string, what: string): Promise<number> {
  const project = `${ledgerProject}-probe`;
  const t0 = Date.now();
  await waitFor(
    async () => {
      const read = await server.call('/objs/query', { project_id: project, limit: 1 }, { timeoutMs: 2000 });
      const write = await server.call(
        '/obj/create',
        { obj: { project_id: project, object_id: 'recovered', val: { at: what } } },
        { timeoutMs: 2000 },
      );
      return ok(read) && ok(write);
    },
    { timeoutMs: 10_000, intervalMs: 100, what: `the server to serve again after ${what}` },
  );
  return Date.now() - t0;
}

/** Every acknowledged write reads back identical, none twice. */
export async function expectLedgerIntact(ledger: WriteLedger): Promise<void> {
  expect(ledger.acknowledged().length, 'some writes must have been acknowledged').toBeGreaterThan(0);
  const report = await ledger.verify();
  expect(report.problems).toEqual([]);
}

export const ok = (o: ApiOutcome) => o.kind === 'answer' && o.status >= 200 && o.status < 300;

/** The `error_type` of an answer, or its failure code. */
export function errorTypeOf(o: ApiOutcome): string {
  if (o.kind === 'failure') return o.code;
  try {
    const type = (JSON.parse(o.text) as { error_type?: unknown }).error_type;
    return typeof type === 'string' ? type : String(o.status);
  } catch {
    return String(o.status);
  }
}
