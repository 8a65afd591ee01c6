// Spend counters, in integer units (usd-units.ts), by name. In Redis each add is one INCRBY (atomic
// across replicas) with the counter expiring a day after its period ends; in process a Map whose
// stale periods are dropped as new ones appear.
import type { Redis } from 'ioredis';

export interface BudgetStore {
  /** The spends of these counters (0 for unknown ones), in order. */
  read(names: string[]): Promise<bigint[]>;
  /** Adds units to each counter; `expireAt` (epoch ms) per counter. */
  add(entries: { name: string; units: bigint; expireAt: number }[]): Promise<void>;
}

const GRACE_MS = 24 * 3600 * 1000;

export function redisBudgetStore(redis: Redis): BudgetStore {
  return {
    async read(names) {
      const values = await redis.mget(...names);
      return values.map((v) => (v === null ? 0n : BigInt(v)));
    },
    async add(entries) {
      const multi = redis.multi();
      for (const { name, units, expireAt } of entries) {
        // INCRBY takes the integer as a string: units may exceed 2^53.
        multi.incrby(name, units.toString());
        multi.pexpireat(name, expireAt + GRACE_MS);
      }
      const results = await multi.exec();
      const failed = results?.find(([err]) => err);
      if (!results || failed) throw failed?.[0] ?? new Error('Redis discarded the budget transaction');
    },
  };
}

export function memoryBudgetStore(now: () => number): BudgetStore {
  const counters = new Map<string, { units: bigint; expireAt: number }>();
  // Past periods are dropped at most once a minute, so an add never walks the whole map.
  let sweptAt = now();
  const sweep = () => {
    const at = now();
    if (at - sweptAt < 60_000) return;
    sweptAt = at;
    for (const [name, c] of counters) if (c.expireAt + GRACE_MS <= at) counters.delete(name);
  };
  return {
    async read(names) {
      return names.map((name) => counters.get(name)?.units ?? 0n);
    },
    async add(entries) {
      sweep();
      for (const { name, units, expireAt } of entries) {
        const c = counters.get(name);
        counters.set(name, { units: (c?.units ?? 0n) + units, expireAt });
      }
    },
  };
}
