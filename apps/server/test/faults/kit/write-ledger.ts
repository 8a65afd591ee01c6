// The load of the fault tests' "under load" phases, and their ledger: N concurrent writers send
// idempotent writes (write-kinds.ts) through the HTTP API, retrying as a well-behaved client
// does (503, 504, 507 and connection failures; bounded attempts; Retry-After when the answer
// has one, else a short exponential backoff), and record every attempt (outcome, duration) and
// every write the server acknowledged (2xx: what was sent and what was answered). Afterwards
// verify() (write-verify.ts) reads every write back.
import { randomBytes } from 'node:crypto';
import { apiCall, outcomeLabel, retryAfterMs } from './api-call.ts';
import {
  ALL_FAMILIES,
  callEnd,
  callStart,
  feedbackCreate,
  objCreate,
  tableCreate,
  type ApiTarget,
  type Attempt,
  type WriteFamily,
  type WriteKind,
  type WriteOutcome,
  type WriteRecord,
  type WriteRequest,
} from './write-kinds.ts';
import { verifyWrites, type VerifyOptions, type VerifyReport } from './write-verify.ts';

export type { ApiTarget, Attempt, WriteRecord } from './write-kinds.ts';

export interface WriteLedgerOptions {
  /** The server, or a getter for it (a test that replaces the server between phases). */
  target: ApiTarget | (() => ApiTarget);
  /** An `acme/…` project of the ledger's own (default: a fresh one). */
  projectId?: string;
  writers?: number;
  families?: readonly WriteFamily[];
  /** Attempts per write, the first included. */
  maxAttempts?: number;
  /** The client's deadline for one attempt. */
  requestTimeoutMs?: number;
  retryOn?: readonly number[];
  backoff?: { baseMs: number; maxMs: number };
  /** Retry-After is honoured up to this. */
  maxRetryAfterMs?: number;
  /** Extra bytes in each value, for heavier writes. */
  padBytes?: number;
}

export class WriteLedger {
  readonly projectId: string;
  readonly runId = randomBytes(4).toString('hex');
  readonly attempts: Attempt[] = [];
  readonly records: WriteRecord[] = [];
  private readonly opts: Required<Omit<WriteLedgerOptions, 'projectId' | 'target'>> & { target: () => ApiTarget };
  private stopping = false;
  private running: Promise<void> | undefined;

  constructor(options: WriteLedgerOptions) {
    const { target } = options;
    this.projectId = options.projectId ?? `acme/fault-${this.runId}`;
    this.opts = {
      writers: 4,
      families: ALL_FAMILIES,
      maxAttempts: 6,
      requestTimeoutMs: 10_000,
      retryOn: [503, 504, 507],
      backoff: { baseMs: 50, maxMs: 1000 },
      maxRetryAfterMs: 2000,
      padBytes: 0,
      ...options,
      target: typeof target === 'function' ? target : () => target,
    };
  }

  get target(): ApiTarget {
    return this.opts.target();
  }

  /** Writers run until stop(). */
  start(): void {
    if (this.running) throw new Error('the ledger is already running');
    this.stopping = false;
    this.running = this.runWriters(undefined);
  }

  /** Lets each writer finish the write it is on (its retries included), then resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
    this.running = undefined;
  }

  /** Each writer does `writesPerWriter` writes (a call counts once), then this resolves. */
  async run(writesPerWriter: number): Promise<void> {
    if (this.running) throw new Error('the ledger is already running');
    this.stopping = false;
    this.running = this.runWriters(writesPerWriter);
    await this.running;
    this.running = undefined;
  }

  acknowledged(kind?: WriteKind): WriteRecord[] {
    return this.records.filter((r) => r.outcome === 'acknowledged' && (!kind || r.kind === kind));
  }

  /** Reads every write back through the API (write-verify.ts); `target` defaults to the ledger's. */
  verify(target: ApiTarget = this.target, options: VerifyOptions = {}): Promise<VerifyReport> {
    return verifyWrites(target, this.projectId, this.records, options);
  }

  /** Attempts per kind and outcome label: `{ obj: { '200': 40, '503': 3 }, … }`. */
  statusCounts(): Partial<Record<WriteKind, Record<string, number>>> {
    const counts: Partial<Record<WriteKind, Record<string, number>>> = {};
    for (const a of this.attempts) {
      const byLabel = (counts[a.kind] ??= {});
      byLabel[a.label] = (byLabel[a.label] ?? 0) + 1;
    }
    return counts;
  }

  /** Every outcome label seen, e.g. to assert "only 2xx, 503 and 507". */
  labels(): Set<string> {
    return new Set(this.attempts.map((a) => a.label));
  }

  /** Attempts that took longer than `ms` (a deadline a test asserts). */
  slowerThan(ms: number): Attempt[] {
    return this.attempts.filter((a) => a.ms > ms);
  }

  private async runWriters(limit: number | undefined): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.writers }, (_, w) => this.writer(w, limit)));
  }

  private async writer(w: number, limit: number | undefined): Promise<void> {
    const { families, padBytes } = this.opts;
    const project = this.projectId;
    for (let seq = 0; !this.stopping && (limit === undefined || seq < limit); seq++) {
      const id = `${this.runId}-w${w}-${seq}`;
      const family = families[(w + seq) % families.length]!;
      if (family === 'obj') await this.write(objCreate(project, id, seq, padBytes));
      else if (family === 'table') await this.write(tableCreate(project, id, seq, padBytes));
      else if (family === 'feedback') await this.write(feedbackCreate(project, id, seq));
      else if ((await this.write(callStart(project, id, seq, padBytes))) === 'acknowledged') await this.write(callEnd(project, id, seq));
    }
  }

  /** One write, retried as a well-behaved client retries; recorded whatever its fate. */
  private async write(request: WriteRequest): Promise<WriteOutcome> {
    const { maxAttempts, requestTimeoutMs, retryOn, backoff, maxRetryAfterMs } = this.opts;
    for (let attempt = 1; ; attempt++) {
      const target = this.target;
      const sentAt = Date.now();
      const outcome = await apiCall(target.url, request.path, request.body, { key: target.aliceKey, timeoutMs: requestTimeoutMs });
      const label = outcomeLabel(outcome);
      this.attempts.push({ kind: request.kind, id: request.id, attempt, label, sentAt, ms: outcome.ms });
      const finish = (result: WriteOutcome, answer?: unknown) => {
        this.records.push({ ...request, outcome: result, attempts: attempt, last: label, ...(answer === undefined ? {} : { answer }) });
        return result;
      };
      if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300)
        return finish('acknowledged', JSON.parse(outcome.text) as unknown);
      const retryable = outcome.kind === 'failure' || retryOn.includes(outcome.status);
      if (!retryable) return finish('refused');
      if (attempt >= maxAttempts) return finish('gave-up');
      const fromServer = retryAfterMs(outcome);
      const wait =
        fromServer !== undefined ? Math.min(fromServer, maxRetryAfterMs) : Math.min(backoff.maxMs, backoff.baseMs * 2 ** (attempt - 1));
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
