// `pnpm dev:web` without WEFT_API: a Prism mock of the spec, started and stopped with Vite's dev
// server, so the app can be built with no server and no database.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

// WEFT_MOCK_PORT: tests run their own mock beside a developer's.
const PORT = Number(process.env.WEFT_MOCK_PORT ?? 4010);
export const PRISM_URL = `http://127.0.0.1:${PORT}`;

export function prismMock(): Plugin {
  let prism: ChildProcess | undefined;
  return {
    name: 'weft-prism-mock',
    configureServer(server) {
      const bin = fileURLToPath(new URL('../../mock/node_modules/.bin/prism', import.meta.url));
      const spec = fileURLToPath(new URL('../../../spec/openapi.json', import.meta.url));
      prism = spawn(bin, ['mock', '-h', '127.0.0.1', '-p', String(PORT), spec], { stdio: ['ignore', 'ignore', 'inherit'] });
      server.config.logger.info(`  API: Prism mock of spec/openapi.json on ${PRISM_URL} (set WEFT_API=<url> for a real server)`);
      server.httpServer?.on('close', () => prism?.kill());
      process.once('exit', () => prism?.kill());
    },
  };
}
