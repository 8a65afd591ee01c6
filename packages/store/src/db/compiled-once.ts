// A hot read built and compiled once per database, with its values bound on each run. Kysely
// builds and compiles a query on every call (operation nodes, their visitors, the SQL text): for a
// small read such as call/read that is a share of the request's CPU paid again each time for the
// same SQL text. Here the query is built once with a marker in each value's place; the compiled
// statement keeps the markers among its parameters, and a run swaps in the values. It goes
// through the same driver (deadlines, timing, the statement cache) as any other query.
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './db.ts';

const SLOT = '\u0000weft-slot:';

type Bind<P extends string> = { slot: P } | { value: unknown };

interface Prepared<P extends string, R> {
  compiled: CompiledQuery<R>;
  binds: Bind<P>[];
}

/**
 * `build` gets a marker per name to pass where a value goes (`.where('id', '=', slot.id)`);
 * the returned function runs the compiled query with `values` bound in their place.
 */
export function compiledOnce<P extends string, R>(
  names: readonly P[],
  build: (db: Db, slot: Readonly<Record<P, string>>) => Compilable<R>,
): (db: Db, values: Readonly<Record<P, unknown>>) => Promise<R[]> {
  const prepared = new WeakMap<Db, Prepared<P, R>>();
  const prepare = (db: Db): Prepared<P, R> => {
    const slot = Object.fromEntries(names.map((n) => [n, `${SLOT}${n}`])) as Record<P, string>;
    const compiled = build(db, slot).compile();
    // A marker spliced into the SQL text (not bound) would make every run read the marker.
    if (compiled.sql.includes(SLOT)) throw new Error('compiledOnce: a value marker ended up in the SQL text');
    const binds = compiled.parameters.map((v): Bind<P> => {
      if (typeof v !== 'string' || !v.startsWith(SLOT)) return { value: v };
      const name = v.slice(SLOT.length);
      const known = names.find((n) => n === name);
      if (known === undefined) throw new Error(`compiledOnce: unknown marker ${name}`);
      return { slot: known };
    });
    const bound = new Set(binds.flatMap((b) => ('slot' in b ? [b.slot] : [])));
    const unbound = names.filter((n) => !bound.has(n));
    if (unbound.length > 0) throw new Error(`compiledOnce: ${unbound.join(', ')} never bound`);
    return { compiled, binds };
  };
  return async (db, values) => {
    let p = prepared.get(db);
    if (!p) prepared.set(db, (p = prepare(db)));
    const parameters = p.binds.map((b) => ('slot' in b ? values[b.slot] : b.value));
    const { rows } = await db.kysely.executeQuery<R>({ ...p.compiled, parameters });
    return rows;
  };
}
