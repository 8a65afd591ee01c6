#!/usr/bin/env node
// Entry point of the `weft` command (cli/program.ts): `weft` or `weft serve` starts the server,
// `weft migrate` applies database migrations and exits, `weft keys …` manages API keys.
import { runWeft } from './cli/program.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { banner } from './cli/banner.ts';
import { migrateCommand, migrateStatusCommand } from './cli/migrate-command.ts';
import { ConfigError, loadConfig } from './config.ts';
import { runDemo } from './demo/run-demo.ts';
import { loggerFor } from './log-output.ts';
import { openKeyDatabase, startServer } from './server.ts';
import { onStopSignals } from './stop-signals.ts';

async function serve(): Promise<number> {
  const config = loadConfig();
  const server = await startServer(config, loggerFor(config));
  // On a terminal, where to go next; never into piped output, which log collectors read as JSON.
  if (process.stdout.isTTY) process.stdout.write(banner(server.url, config));
  onStopSignals({
    graceful: (signal) => {
      server.logger.info({ signal }, 'shutting down: finishing requests in flight');
      void server.close().then(
        () => process.exit(0),
        (err: unknown) => {
          server.logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    },
    immediate: (signal) => {
      // A second signal: the operator does not want to wait for requests in flight.
      server.logger.warn({ signal }, 'stopping now');
      process.exit(1);
    },
  });
  return -1; // keep running
}

// Before the work starts: large request bodies otherwise let the heap grow far (heap-growth.ts).
boundHeapGrowth();
const io = { stdout: process.stdout, stderr: process.stderr };
runWeft(process.argv.slice(2), io, {
  serve,
  migrate: (opts) => migrateCommand(loadConfig(), opts, io),
  migrateStatus: () => migrateStatusCommand(loadConfig(), io),
  demo: (project) => runDemo(loadConfig(), project, io),
  openKeys: () => openKeyDatabase(loadConfig()),
}).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`weft: ${message}\n`);
    process.exit(1);
  },
);
