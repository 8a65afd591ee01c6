// Every error the service answers with comes from the catalogue (errors.ts): no WeftError is made
// elsewhere, no `error_type` (nor a 422 item's `type`) is written as a string literal in a source
// file, and each name in the catalogue means one status. A client matches on error_type; a name
// made up at a call site would be one it cannot know.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_TYPES, noOperation, notFound, WeftError } from './errors.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CATALOGUE = 'packages/core/src/errors.ts';
// Server-side sources: the service and every package (Studio only reads error_type).
const DIRS = ['apps/server/src', ...readdirSync(join(ROOT, 'packages')).map((name) => `packages/${name}/src`)];

function* sources(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules') yield* sources(path);
    } else if (/\.ts$/.test(name) && !/\.test(-d)?\.ts$/.test(name)) yield path;
  }
}

/** `path:line` of each match of `pattern` (global) in the sources but the catalogue. */
const matchesOutsideCatalogue = (pattern: RegExp) =>
  files
    .filter((f) => f.path !== CATALOGUE)
    .flatMap((f) =>
      [...f.text.matchAll(pattern)].map(
        (m) => `${f.path}:${f.text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ').slice(0, 120)}`,
      ),
    );

const files = DIRS.flatMap((d) => [...sources(join(ROOT, d))]).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

describe('the error catalogue', () => {
  it('reads the service’s sources', () => {
    expect(files.some((f) => f.path === CATALOGUE)).toBe(true);
    expect(files.length).toBeGreaterThan(100);
    for (const dir of ['apps/server/src/http/', 'packages/router/src/', 'packages/store/src/'])
      expect(files.some((f) => f.path.startsWith(dir))).toBe(true);
  });

  it('is the only place a WeftError is made', () => {
    const outside = files.filter((f) => f.path !== CATALOGUE && /new WeftError\(/.test(f.text)).map((f) => f.path);
    expect(outside).toEqual([]);
  });

  it('has no error_type written as a literal anywhere', () => {
    const literal = /\berror_?[tT]ype\s*[:=]\s*['"`][A-Za-z]/;
    const found = files.flatMap((f) =>
      f.text
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${f.path}:${i + 1}` }))
        .filter(({ line }) => literal.test(line) && !line.startsWith('//') && !line.startsWith('*')),
    );
    expect(found).toEqual([]);
  });

  it('has no 422 item written with a literal type outside it (validationDetail or invalidField take one from it)', () => {
    // An object literal with `loc` and then a quoted `type`, on one line or several (`${…}` inside allowed).
    expect(matchesOutsideCatalogue(/\{(?:[^{}]|\$\{[^{}]*\})*?\bloc\s*:(?:[^{}]|\$\{[^{}]*\})*?\btype\s*:\s*['"`]/g)).toEqual([]);
  });

  it('answers a missing route and a missing resource with the one 404 name the spec documents', () => {
    expect(noOperation('No operation at GET /x').toBody()).toMatchObject({ error_type: 'NotFoundError' });
    expect(notFound('Not found').toBody()).toMatchObject({ error_type: 'NotFoundError' });
    expect(ERROR_TYPES).not.toContain('NotFound');
    // @ts-expect-error: a name outside the catalogue does not compile.
    expect(new WeftError(404, 'NotFound', 'x').errorType).toBe('NotFound');
  });

  it('gives each name one status', () => {
    const text = files.find((f) => f.path === CATALOGUE)!.text;
    const statuses = new Map<string, Set<number>>();
    for (const [, status, name] of text.matchAll(/new WeftError\(\s*(\d{3}),\s*'(\w+)'/g)) {
      statuses.set(name!, (statuses.get(name!) ?? new Set()).add(Number(status)));
    }
    expect(statuses.size).toBeGreaterThan(10);
    // Each name of ERROR_TYPES is made by one of the catalogue's constructors (no name left over).
    const made = [...text.matchAll(/(?:new WeftError|super)\(\s*\w+,\s*'(\w+)'/g)].map(([, name]) => name);
    expect(new Set(made)).toEqual(new Set(ERROR_TYPES));
    const ambiguous = [...statuses].filter(([, s]) => s.size > 1).map(([name, s]) => `${name}: ${[...s].join(', ')}`);
    expect(ambiguous).toEqual([]);
  });
});
