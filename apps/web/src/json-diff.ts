// The difference between two JSON values, as the paths where they differ: added, removed or
// changed leaves (a container that becomes a scalar, or the reverse, is one change at its path).
// Iterative and capped, so a diff of two large objects never freezes the page.

export interface DiffEntry {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === 'object' && v !== null;

function keyPath(base: string, key: string, inArray: boolean): string {
  if (inArray) return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (base === '' ? key : `${base}.${key}`) : `${base}[${JSON.stringify(key)}]`;
}

/** At most `max` entries (the rest are counted in `more`). */
export function jsonDiff(before: unknown, after: unknown, max = 500): { entries: DiffEntry[]; more: number } {
  const entries: DiffEntry[] = [];
  let more = 0;
  const push = (e: DiffEntry) => (entries.length < max ? entries.push(e) : more++);
  const stack: Array<[string, unknown, unknown]> = [['', before, after]];
  while (stack.length > 0) {
    const [path, a, b] = stack.pop()!;
    if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
      const inArray = Array.isArray(a);
      const ka = Object.keys(a);
      const kb = new Set(Object.keys(b));
      const pending: Array<[string, unknown, unknown]> = [];
      for (const k of ka) {
        const p = keyPath(path, k, inArray);
        const va = (a as Record<string, unknown>)[k];
        if (!kb.has(k)) push({ path: p, kind: 'removed', before: va });
        else pending.push([p, va, (b as Record<string, unknown>)[k]]);
        kb.delete(k);
      }
      for (const k of kb) push({ path: keyPath(path, k, inArray), kind: 'added', after: (b as Record<string, unknown>)[k] });
      // Reversed onto the stack so the entries come out in key order.
      for (let i = pending.length - 1; i >= 0; i--) stack.push(pending[i]!);
    } else if (!sameLeaf(a, b)) {
      push({ path: path === '' ? '(whole value)' : path, kind: 'changed', before: a, after: b });
    }
  }
  return { entries, more };
}

function sameLeaf(a: unknown, b: unknown): boolean {
  if (isContainer(a) || isContainer(b)) return false; // container vs scalar, or array vs object
  return Object.is(a, b);
}
