// What GET /metrics answers (Prometheus' text format, through prom-client): every request by
// operation and status class, the database's statements and pool, what was ingested, and the
// process' own metrics (CPU, memory, event-loop delay, GC). One registry per server, so servers
// started side by side (tests) count apart.
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, Store, SweepCounts } from '@weft/store';
import type { RouterObserver } from '@weft/router';
import { createRouterMetrics } from './router-metrics.ts';
import { BUILD_INFO } from '../version.ts';

export interface Metrics {
  registry: Registry;
  /** Counts and times every request (first middleware: it sees 404s, 401s and 503s too). */
  observeRequests: RequestHandler;
  /** Counts what the store's ingest operations stored: calls, OTLP spans, trajectories, table rows. */
  countIngest(store: Store): Store;
  /** Counts what a retention sweep's batch deleted (retention/sweeper.ts). */
  countRetention: (deleted: SweepCounts) => void;
  /** Whether the shared rate limits' Redis answers (only reported with REDIS_URL). */
  redisState: (state: 'ok' | 'unreachable') => void;
  /** What the router tells about its attempts and priced answers (http/router-metrics.ts). */
  router: RouterObserver;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export function createMetrics(db: Db): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'weft_' });
  // Always 1: the labels are the information (which build each replica runs, as Prometheus' own
  // *_build_info metrics), so a dashboard can join it onto any other series.
  new Gauge({
    name: 'weft_build_info',
    help: 'The version, git commit and Node.js version of this server; always 1.',
    labelNames: ['version', 'commit', 'node'] as const,
    registers: [registry],
  }).set({ version: BUILD_INFO.version, commit: BUILD_INFO.commit, node: process.versions.node }, 1);

  const requests = new Counter({
    name: 'weft_http_requests_total',
    help: 'Requests answered, by operation and status class.',
    labelNames: ['operation', 'status_class'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'weft_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by operation and status class.',
    labelNames: ['operation', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'weft_http_requests_in_flight', help: 'Requests being served.', registers: [registry] });
  const bodyBytes = new Counter({
    name: 'weft_http_request_body_bytes_total',
    help: 'Request body bytes read (after inflating), by operation.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'weft_db_query_duration_seconds',
    help: 'Database statements, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'weft_db_pool_connections',
    help: "The PostgreSQL pool's connections by state (absent on SQLite).",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = db.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  const ingested = new Counter({
    name: 'weft_ingested_total',
    help: 'Items stored by the ingest operations: calls, OTLP spans, trajectories, table rows.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

  const retained = new Counter({
    name: 'weft_retention_deleted_total',
    help: 'Rows the retention sweeper deleted: expired calls, their feedback, files nothing references any more.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });

  db.queryTiming.onQuery = (seconds, failed) => queries.observe({ outcome: failed ? 'error' : 'ok' }, seconds);

  // prom-client hashes a label set on every call; a request's pair is looked up once here instead
  // (operations × status classes: a few hundred at most).
  const children = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof duration.labels> }>();
  const childrenOf = (operation: string, status_class: string) => {
    const key = `${operation} ${status_class}`;
    let child = children.get(key);
    if (!child) {
      child = { count: requests.labels(operation, status_class), time: duration.labels(operation, status_class) };
      children.set(key, child);
    }
    return child;
  };

  const observeRequests: RequestHandler = (_req, res, next) => {
    const started = performance.now();
    inFlight.inc();
    // 'close' comes once the answer is written, or when the client went away first.
    res.once('close', () => {
      inFlight.dec();
      const operation = String(res.locals.operationId ?? 'none');
      const child = childrenOf(operation, statusClass(res.statusCode));
      child.count.inc();
      child.time.observe((performance.now() - started) / 1000);
      const bytes = res.locals.bodyBytes as number | undefined;
      if (bytes) bodyBytes.inc({ operation }, bytes);
    });
    next();
  };

  const countIngest = (store: Store): Store => ({
    ...store,
    async callStart(req, ctx) {
      const res = await store.callStart(req, ctx);
      ingested.inc({ kind: 'calls' });
      return res;
    },
    async callUpsertBatch(req, ctx) {
      const res = await store.callUpsertBatch(req, ctx);
      ingested.inc({ kind: 'calls' }, req.batch.filter((item) => item.mode === 'start').length);
      return res;
    },
    async modelLog(req, ctx) {
      const res = await store.modelLog(req, ctx);
      ingested.inc({ kind: 'trajectories' }, res.trajectory_count);
      return res;
    },
    async otelExport(req, ctx) {
      const res = await store.otelExport(req, ctx);
      const sent = req.request.resourceSpans.reduce((n, rs) => rs.scopeSpans.reduce((m, ss) => m + ss.spans.length, n), 0);
      const rejected = typeof res === 'object' && res.partialSuccess ? Number(res.partialSuccess.rejectedSpans) : 0;
      ingested.inc({ kind: 'spans' }, sent - rejected);
      return res;
    },
    async tableCreate(req, ctx) {
      const res = await store.tableCreate(req, ctx);
      ingested.inc({ kind: 'table_rows' }, res.row_digests.length);
      return res;
    },
  });

  const countRetention = (deleted: SweepCounts) => {
    for (const kind of ['calls', 'feedback', 'files'] as const) if (deleted[kind] > 0) retained.inc({ kind }, deleted[kind]);
  };

  let redisUp: Gauge | undefined;
  const redisState = (state: 'ok' | 'unreachable') => {
    redisUp ??= new Gauge({
      name: 'weft_redis_up',
      help: '1 while the Redis of the shared rate limits answers; 0 while each process limits alone.',
      registers: [registry],
    });
    redisUp.set(state === 'ok' ? 1 : 0);
  };

  return { registry, observeRequests, countIngest, countRetention, redisState, router: createRouterMetrics(registry) };
}
