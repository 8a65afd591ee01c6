// Every error the service answers with comes from the catalogue (errors.ts): no WeftError is made
// elsewhere, no `error_type` is written as a string literal in a source file, and each name in
// the catalogue means one status. A client matches on error_type; a name made up at a call site
// would be one it cannot know.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CATALOGUE = 'packages/core/src/errors.ts';
// Server-side sources: the service and its packages (Studio only reads error_type).
const DIRS = ['apps/server/src', 'apps/mock/src', 'packages/core/src', 'packages/store/src', 'packages/client/src', 'packages/types/src'];

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

const files = DIRS.flatMap((d) => [...sources(join(ROOT, d))]).map((path) => ({
  path: relative(ROOT, path),
  text: readFileSync(path, 'utf8'),
}));

describe('the error catalogue', () => {
  it('reads the service’s sources', () => {
    expect(files.some((f) => f.path === CATALOGUE)).toBe(true);
    expect(files.length).toBeGreaterThan(100);
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

  it('gives each name one status', () => {
    const text = files.find((f) => f.path === CATALOGUE)!.text;
    const statuses = new Map<string, Set<number>>();
    for (const [, status, name] of text.matchAll(/new WeftError\(\s*(\d{3}),\s*'(\w+)'/g)) {
      statuses.set(name!, (statuses.get(name!) ?? new Set()).add(Number(status)));
    }
    expect(statuses.size).toBeGreaterThan(10);
    const ambiguous = [...statuses].filter(([, s]) => s.size > 1).map(([name, s]) => `${name}: ${[...s].join(', ')}`);
    expect(ambiguous).toEqual([]);
  });
});
