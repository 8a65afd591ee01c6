// A hot statement built and compiled once per database, with its values bound on each run. Kysely
// builds and compiles a query on every call (operation nodes, their visitors, the SQL text): for a
// small read such as call/read, or the multi-row upserts of calls, that is a share of the
// request's CPU paid again each time for the same SQL text. Here the query is built once with a
// marker in each value's place; the compiled statement keeps the markers among its parameters, and
// a run swaps in the values. It goes through the same driver (deadlines, timing, the statement
// cache) as any other query.
//
// A marker is only a stand-in for a value: whatever the build does to a value in JavaScript (a
// check, a clamp) it would do to the marker, so such work belongs to each run, on the real values.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Db } from './db.ts';
import type { Database } from './schema.ts';

const SLOT = '\u0000weft-slot:';

/** Where a parameter comes from: the value at this position of a run's values, or a constant. */
type Bind = number | { value: unknown };

interface Prepared<R> {
  compiled: CompiledQuery<R>;
  binds: Bind[];
}

/** Runs the statement with `values` bound, on `on` (a transaction of `db`) or else on db.kysely. */
export type CompiledRun<V, R> = (db: Db, values: V, on?: Kysely<Database>) => Promise<R[]>;

/**
 * `build` gets a marker per name to pass where a value goes (`.where('id', '=', slot.id)`);
 * the returned function runs the compiled query with `values` bound in their place.
 */
export function compiledOnce<P extends string, R>(
  names: readonly P[],
  build: (db: Db, slot: Readonly<Record<P, string>>) => Compilable<R>,
): CompiledRun<Readonly<Record<P, unknown>>, R> {
  const run = compiledOnceByPosition<R>(names, (db, markers) =>
    build(db, Object.fromEntries(names.map((n, i) => [n, markers[i]])) as Record<P, string>),
  );
  return (db, values, on) =>
    run(
      db,
      names.map((n) => values[n]),
      on,
    );
}

/**
 * As compiledOnce, with values by position: `build` gets one marker per name, in order, and a run
 * binds `values[i]` where marker i went. For statements with many values (a multi-row insert),
 * where a run would otherwise build a record of them.
 */
export function compiledOnceByPosition<R>(
  names: readonly string[],
  build: (db: Db, markers: readonly string[]) => Compilable<R>,
): CompiledRun<readonly unknown[], R> {
  const prepared = new WeakMap<Db, Prepared<R>>();
  const prepare = (db: Db): Prepared<R> => {
    const compiled = build(
      db,
      names.map((_, i) => `${SLOT}${i}`),
    ).compile();
    // A marker spliced into the SQL text (not bound) would make every run read the marker.
    if (compiled.sql.includes(SLOT)) throw new Error('compiledOnce: a value marker ended up in the SQL text');
    const bound = new Set<number>();
    const binds = compiled.parameters.map((v): Bind => {
      if (typeof v !== 'string' || !v.startsWith(SLOT)) return { value: v };
      const at = Number(v.slice(SLOT.length));
      if (!Number.isInteger(at) || at < 0 || at >= names.length) throw new Error(`compiledOnce: unknown marker ${v.slice(SLOT.length)}`);
      bound.add(at);
      return at;
    });
    const unbound = names.filter((_, i) => !bound.has(i));
    if (unbound.length > 0) throw new Error(`compiledOnce: ${unbound.join(', ')} never bound`);
    return { compiled, binds };
  };
  return async (db, values, on = db.kysely) => {
    let p = prepared.get(db);
    if (!p) prepared.set(db, (p = prepare(db)));
    const parameters = p.binds.map((b) => (typeof b === 'number' ? values[b] : b.value));
    const { rows } = await on.executeQuery<R>({ ...p.compiled, parameters });
    return rows;
  };
}
