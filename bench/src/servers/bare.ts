// The baselines of call/read: the least a Node server can do to answer the same call. All read
// the request body (a real server must) and answer the same constant JSON Weft answers; the third
// also runs the statement Weft's store runs for it, on a plain driver of its own (the floor of
// any server that reads the call from the database).
import { createServer, type Server } from 'node:http';
import express from 'express';
import type { CompiledQuery } from 'kysely';
import type { DirectConnection } from '../direct-sql.ts';

/** node:http alone: read the body, write the bytes. */
export function bareHttpServer(responseBody: string): Server {
  const bytes = Buffer.from(responseBody);
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
}

/** One Express 5 route with the JSON body parser, answering with res.json as Weft's handlers do. */
export function bareExpressServer(responseBody: string): Server {
  const value: unknown = JSON.parse(responseBody);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/call/read', express.json(), (_req, res) => {
    res.json(value);
  });
  return createServer(app);
}

/**
 * The bare Express route that also runs `statement` per request, as Weft reads the call, on a
 * plain driver of its own (direct-sql.ts: prepared once; on PostgreSQL a pool of Weft's default
 * size). The rows are checked (one row) but not turned into the answer: that is Weft's own work.
 */
export function bareExpressSqlServer(responseBody: string, direct: DirectConnection, statement: Statement): Server {
  const value: unknown = JSON.parse(responseBody);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/call/read', express.json(), (_req, res, next) => {
    direct.run(statement).then(
      (rows) => (rows.length === 1 ? res.json(value) : next(new Error(`the statement read ${rows.length} rows`))),
      (err: unknown) => next(err),
    );
  });
  return createServer(app);
}

/** A statement as captured from the store: its text and the values it ran with. */
export type Statement = Pick<CompiledQuery, 'sql' | 'parameters'>;
