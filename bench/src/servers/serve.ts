// Child-process entry of the baseline servers, so each has a core and an RSS of its own: `http`
// and `express`, answering the JSON in BENCH_CONSTANT_FILE, `express-sql`, which also runs the
// statement in BENCH_STATEMENT_FILE on BENCH_DATABASE_URL for each request, and `proxy`, relaying chat
// completions to BENCH_UPSTREAM_URL (Weft itself runs from its build: serve-built.mjs). Prints one line `{"url": …}` on stdout once listening; SIGTERM stops it.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { bareExpressServer, bareExpressSqlServer, bareHttpServer, type Statement } from './bare.ts';
import { bareProxyServer } from './bare-proxy.ts';
import { openDirect } from '../direct-sql.ts';

async function serverOf(kind: string | undefined): Promise<{ server: Server; close?: () => Promise<void> }> {
  if (kind === 'proxy') return { server: bareProxyServer(process.env.BENCH_UPSTREAM_URL ?? '', process.env.BENCH_UPSTREAM_MODEL ?? '') };
  if (kind !== 'http' && kind !== 'express' && kind !== 'express-sql') throw new Error(`unknown server kind ${kind}`);
  const body = readFileSync(process.env.BENCH_CONSTANT_FILE ?? '', 'utf8');
  if (kind === 'express-sql') {
    const statement = JSON.parse(readFileSync(process.env.BENCH_STATEMENT_FILE ?? '', 'utf8')) as Statement;
    // A pool of Weft's default size on PostgreSQL: the route is loaded by 32 connections at once.
    const direct = await openDirect(process.env.BENCH_DATABASE_URL ?? '', { pool: 10 });
    return { server: bareExpressSqlServer(body, direct, statement), close: () => direct.close() };
  }
  return { server: kind === 'http' ? bareHttpServer(body) : bareExpressServer(body) };
}

async function main(kind: string | undefined): Promise<void> {
  const { server, close } = await serverOf(kind);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  announce(`http://127.0.0.1:${port}`, async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await close?.();
  });
}

function announce(url: string, close: () => Promise<void>): void {
  process.stdout.write(`${JSON.stringify({ url })}\n`);
  process.once('SIGTERM', () => {
    void close().finally(() => process.exit(0));
  });
}

main(process.argv[2]).catch((err: unknown) => {
  process.stderr.write(`bench server: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
