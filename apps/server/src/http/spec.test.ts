// express-openapi-validator compiles each operation's schemas with the spec's components as their
// root, not its paths (a Weft patch, patches/express-openapi-validator@5.6.2.patch: walking every
// path for every operation was most of a server's start). That holds only while every $ref of the
// bundled spec points into #/components.
import { expect, it } from 'vitest';
import { spec } from './spec.ts';

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

it('every $ref of the bundled spec points into #/components', () => {
  const refs = refsOf(spec);
  expect(refs.length).toBeGreaterThan(100);
  expect(refs.filter((r) => !r.startsWith('#/components/'))).toEqual([]);
});
