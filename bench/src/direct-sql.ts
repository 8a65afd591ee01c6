// "The same SQL run directly on the database": the statements the store runs for a request,
// captured as compiled (text and parameters) through a Kysely plugin, then timed on a plain
// driver connection of the bench process: better-sqlite3 on the same file, or a pg client.
import { loadCatalogue } from '@weft/core';
import { createStore, type Db, type Store } from '@weft/store';
import BetterSqlite3 from 'better-sqlite3';
import type {
  CompiledQuery,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import pg from 'pg';

class CaptureQueries implements KyselyPlugin {
  readonly seen: PluginTransformQueryArgs[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.seen.push(args);
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

/** The statements `run` makes the store execute, in order. */
export async function captureQueries(db: Db, run: (store: Store) => Promise<unknown>): Promise<CompiledQuery[]> {
  const plugin = new CaptureQueries();
  const kysely = db.kysely.withPlugin(plugin);
  await run(createStore({ db: { ...db, kysely }, catalogue: await loadCatalogue(undefined) }));
  return plugin.seen.map(({ node, queryId }) => kysely.getExecutor().compileQuery(node, queryId));
}

// Kysely runs a transaction's own statements through the same connection: not part of the work.
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|start transaction|savepoint|release)\b/i;

/**
 * The statements `run` makes the database execute, in order, as executed: with the values they ran
 * with, also for a statement the store compiled once and binds on each run (db/compiled-once.ts),
 * which captureQueries sees at most once and with markers for values. Not the transaction's
 * begin and commit.
 */
export async function captureExecuted(db: Db, run: (store: Store) => Promise<unknown>): Promise<CompiledQuery[]> {
  const seen: CompiledQuery[] = [];
  const before = db.queryTiming.onQuery;
  db.queryTiming.onQuery = (seconds, failed, query) => {
    if (!failed && !TRANSACTION_CONTROL.test(query.sql)) seen.push(query);
    before?.(seconds, failed, query);
  };
  try {
    await run(createStore({ db, catalogue: await loadCatalogue(undefined) }));
  } finally {
    db.queryTiming.onQuery = before;
  }
  return seen;
}

/** A plain connection that runs compiled statements and returns their rows. */
export interface DirectConnection {
  run(query: Pick<CompiledQuery, 'sql' | 'parameters'>): Promise<unknown[]>;
  close(): Promise<void>;
}

/** `pool`: on PostgreSQL, a pg pool of that many connections instead of one client (for concurrent load). */
export async function openDirect(databaseUrl: string, opts: { pool?: number } = {}): Promise<DirectConnection> {
  if (databaseUrl.startsWith('sqlite:')) {
    const sqlite = new BetterSqlite3(databaseUrl.slice('sqlite:'.length), { readonly: true });
    const statements = new Map<string, BetterSqlite3.Statement>();
    return {
      // Prepared once per text, as a server keeping its statements would.
      run: (query) => {
        let stmt = statements.get(query.sql);
        if (!stmt) statements.set(query.sql, (stmt = sqlite.prepare(query.sql)));
        return Promise.resolve(stmt.all(...(query.parameters as unknown[])));
      },
      close: () => {
        sqlite.close();
        return Promise.resolve();
      },
    };
  }
  const client = opts.pool
    ? new pg.Pool({ connectionString: databaseUrl, max: opts.pool })
    : new pg.Client({ connectionString: databaseUrl });
  if (client instanceof pg.Client) await client.connect();
  return {
    run: async (query) => (await client.query(query.sql, query.parameters as unknown[])).rows as unknown[],
    close: () => client.end(),
  };
}
