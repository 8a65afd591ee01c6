// Weft Studio's build and dev server. The app calls the API on its own origin (as when the server
// serves it), so in development every path of the spec is proxied: to WEFT_API when set (a real
// server), else to a Prism mock of the spec started with Vite (the spec's examples are the data).
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './dev/precompress.ts';
import { prismMock, PRISM_URL } from './dev/prism-mock.ts';
import { redocBundle } from './dev/redoc-bundle.ts';

const spec = JSON.parse(readFileSync(new URL('../../spec/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, unknown> };
// The first segment of every operation's path: `/call/read` → `/call/`. An operation always wins
// over an app route, here as on the server.
const prefixes = [...new Set(Object.keys(spec.paths).map((p) => `/${p.split('/')[1]}`))];

export default defineConfig(({ command }) => {
  const api = process.env.WEFT_API;
  const target = api ?? PRISM_URL;
  return {
    plugins: [react(), redocBundle(), precompress(), ...(command === 'serve' && !api ? [prismMock()] : [])],
    // The workspace packages' TypeScript sources, as the tests use them.
    resolve: { conditions: ['@weft/source', 'module', 'browser', 'development|production'] },
    // Pre-bundled at start, so the first page load never waits on (and reloads after) their discovery.
    optimizeDeps: {
      include: [
        'react',
        'react/jsx-runtime',
        'react-dom/client',
        'react-router',
        '@tanstack/react-query',
        'openapi-react-query',
        'openapi-fetch',
      ],
    },
    server: {
      host: '127.0.0.1',
      port: 5173,
      proxy: Object.fromEntries(prefixes.map((p) => [`^${p}(/|$|\\?)`, { target, changeOrigin: true }])),
    },
    build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  };
});
