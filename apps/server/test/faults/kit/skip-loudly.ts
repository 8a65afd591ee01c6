// A fault test needs things a developer's machine may lack (initdb, redis-server, the right to
// mount a tmpfs). There it is skipped with a warning that says why; where CI promises the thing
// (WEFT_REQUIRE_PG=1, WEFT_REQUIRE_REDIS=1, CI as root) its absence is a failing test instead,
// never a silent skip. As packages/store/test/dialects.ts does for the shared PostgreSQL.
import { describe, it } from 'vitest';

export type Availability = { available: true } | { available: false; reason: string };

export interface Requirement {
  /** True where the environment promises the thing: then its absence fails. */
  required: boolean;
  /** What makes it required, for the messages: `WEFT_REQUIRE_PG=1`, `CI=true as root`. */
  by: string;
}

export const requiredByEnv = (name: string): Requirement => ({ required: process.env[name] === '1', by: `${name}=1` });

/**
 * Declares `body` as a suite when `availability` says so; otherwise a skipped suite and a
 * console.warn naming the reason, or, when required, one failing test naming it.
 */
export function describeWhenAvailable(name: string, availability: Availability, requirement: Requirement, body: () => void): void {
  if (availability.available) {
    describe(name, body);
    return;
  }
  if (requirement.required) {
    // A failing test rather than a failing hook: vitest counts a hook failure's tests as skipped.
    describe(name, () => {
      it(`needs what is missing (${requirement.by})`, () => {
        throw new Error(`${requirement.by} but ${availability.reason}`);
      });
    });
    return;
  }
  console.warn(`SKIPPED: ${name}: ${availability.reason} (${requirement.by} makes this a failure)`);
  describe.skip(`${name} (${availability.reason})`, body);
}

/** The message of an error, or its code, for a reason line. */
export function reasonOf(err: unknown): string {
  const e = err as Error & { code?: string };
  return e?.message || e?.code || String(err);
}
