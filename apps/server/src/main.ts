// Entry point: `weft` starts the server; `weft keys add …` manages an auth file; `weft migrate`
// applies database migrations and exits.
import { runKeysCommand } from './auth/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { runMigrate, startServer } from './server.ts';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'keys') return runKeysCommand(rest, { stdout: process.stdout, stderr: process.stderr });
  if (command !== undefined && command !== 'serve' && command !== 'migrate') {
    process.stderr.write(`unknown command "${command}"; use: serve (default), migrate, keys add\n`);
    return 2;
  }
  const config = loadConfig();
  if (command === 'migrate') {
    await runMigrate(config);
    return 0;
  }
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second signal: the operator does not want to wait for requests in flight.
      server.logger.warn({ signal }, 'stopping now');
      process.exit(1);
    }
    stopping = true;
    server.logger.info({ signal }, 'shutting down: finishing requests in flight');
    void server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (err: unknown) => {
    const message = err instanceof ConfigError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`weft: ${message}\n`);
    process.exit(1);
  },
);
