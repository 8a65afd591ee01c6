// The API reference at /docs: Redoc's standalone bundle (a maintained renderer of OpenAPI 3.1),
// copied into the build beside public/docs/index.html, and served by Vite in development. Redoc
// loads its attribution logo from its CDN; a self-hosted page makes no outside request (and the
// page's CSP would block it), so the bundle points at a local copy instead. The build fails if a
// Redoc upgrade moves that URL, rather than quietly reaching out again.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const FILE = 'docs/redoc.standalone.js';
const LOGO_FILE = 'docs/redoc-logo.svg';
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
// A plain mark in Redoc's colour: the attribution stays, only the image is local.
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#e53f3f"/><path d="M5 12V4h3.5a2.25 2.25 0 0 1 0 4.5H5m3.5 0L11 12" fill="none" stroke="#fff" stroke-width="1.6"/></svg>\n`;

export function localRedoc(source: string): string {
  if (!source.includes(CDN_LOGO)) throw new Error(`Redoc's bundle no longer loads ${CDN_LOGO}: check what it loads from outside now`);
  return source.split(CDN_LOGO).join(`/${LOGO_FILE}`);
}

export function redocBundle(): Plugin {
  const path = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  const bundle = () => localRedoc(readFileSync(path, 'utf8'));
  return {
    name: 'weft-redoc-bundle',
    configureServer(server) {
      server.middlewares.use(`/${FILE}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(bundle());
      });
      server.middlewares.use(`/${LOGO_FILE}`, (_req, res) => {
        res.setHeader('Content-Type', 'image/svg+xml');
        res.end(LOGO);
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: FILE, source: bundle() });
      this.emitFile({ type: 'asset', fileName: LOGO_FILE, source: LOGO });
    },
  };
}
