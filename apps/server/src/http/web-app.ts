// Weft Studio, served from the same process: the built files of apps/web at `/`. Reached only for
// paths no operation of the spec has (the dispatcher calls it on a would-be 404), so an operation
// always wins over an app route. Hashed files under /assets/ are cached for a year (their name
// changes with their content); index.html is revalidated every time, and answers every deep link
// a browser navigates to (Accept: text/html), so /acme/bot/r/call/<id> opens the app. Other
// clients still get the JSON 404. The spec itself is at /openapi.json, rendered by Redoc at /docs.
// The build writes each text file beside itself as .br and .gz (apps/web/dev/precompress.ts);
// express-static-gzip sends the one the client accepts, with Content-Encoding and Vary.
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import type { RequestHandler, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { spec } from './spec.ts';

/** Scripts, styles, images and API calls from this origin only; no inline script, no framing. */
export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The API reference (/docs, Redoc): its renderer injects <style> elements and searches in a blob worker. */
export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...APP_SECURITY_HEADERS,
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

const YEAR_S = 365 * 24 * 3600;

const isDocs = (path: string) => path === '/docs' || path.startsWith('/docs/');

function secure(res: Response | ServerResponse, path: string): void {
  for (const [name, value] of Object.entries(isDocs(path) ? DOCS_SECURITY_HEADERS : APP_SECURITY_HEADERS)) res.setHeader(name, value);
}

/** The fallback for paths without an operation; `next()` when it has nothing to answer. */
export function webApp(dir: string): RequestHandler {
  const index = join(dir, 'index.html');
  const docs = join(dir, 'docs', 'index.html');
  const files = expressStaticGzip(dir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders(res: ServerResponse, path: string) {
        // `path` is the file's (maybe its .br or .gz); its place under `dir` is the URL path it answers.
        const url = path
          .slice(dir.length)
          .split(sep)
          .join('/')
          .replace(/\.(?:br|gz)$/, '');
        secure(res, url);
        res.setHeader('Cache-Control', url.startsWith('/assets/') ? `public, max-age=${YEAR_S}, immutable` : 'no-cache');
      },
    },
  }) as RequestHandler;
  const specText = JSON.stringify(spec);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/openapi.json') {
      res.set('Cache-Control', 'no-cache').type('application/json').send(specText);
      return;
    }
    // The API reference, rendered by Redoc from /openapi.json.
    if ((req.path === '/docs' || req.path === '/docs/') && existsSync(docs)) {
      secure(res, '/docs');
      res.set('Cache-Control', 'no-cache').sendFile(docs, (err) => err && next(err));
      return;
    }
    // express-static-gzip answers a path that does not decode with a text 400 of its own: such a
    // path names no file, so it goes on to the API's JSON 404.
    if (!decodes(req.path)) return next();
    files(req, res, () => {
      // A browser navigating to a page of the app (not a missing asset, not an API client).
      const page = !req.path.startsWith('/assets/') && !/\.[a-z0-9]+$/i.test(req.path) && req.accepts(['json', 'html']) === 'html';
      if (!page || !existsSync(index)) return next();
      secure(res, req.path);
      res.set('Cache-Control', 'no-cache').sendFile(index, (err) => err && next(err));
    });
  };
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
