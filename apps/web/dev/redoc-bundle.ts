// The API reference at /docs: Redoc's standalone bundle (a maintained renderer of OpenAPI 3.1),
// copied into the build beside public/docs/index.html, and served by Vite in development.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const FILE = 'docs/redoc.standalone.js';

export function redocBundle(): Plugin {
  const path = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  return {
    name: 'weft-redoc-bundle',
    configureServer(server) {
      server.middlewares.use(`/${FILE}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(readFileSync(path));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: FILE, source: readFileSync(path) });
    },
  };
}
