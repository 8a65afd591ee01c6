// Small readers for validating untrusted JSON. Each one reports every
// problem it finds (with its path) and returns a harmless fallback rather
// than throwing, so a single run lists all the mistakes in a file.

export type Report = (path: string, message: string) => void;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short human description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${value}`;
  return typeof value;
}

/** Flags keys outside `known`; typos such as "deprecation-date" must not pass silently. */
export function checkKnownKeys(obj: Record<string, unknown>, known: ReadonlySet<string>, path: string, report: Report): void {
  for (const key of Object.keys(obj)) {
    if (!known.has(key)) report(`${path}.${key}`, 'unknown field');
  }
}

/** Reads a required object; returns {} (and reports) when absent or not an object. */
export function readRecord(obj: Record<string, unknown>, key: string, path: string, report: Report): Record<string, unknown> {
  const value = obj[key];
  const at = `${path}.${key}`;
  if (value === undefined) report(at, 'is required');
  else if (!isRecord(value)) report(at, `expected an object, got ${describeValue(value)}`);
  else return value;
  return {};
}

/** Reads a required non-empty string. */
export function readString(obj: Record<string, unknown>, key: string, path: string, report: Report): string {
  const value = obj[key];
  const at = `${path}.${key}`;
  if (value === undefined) report(at, 'is required');
  else if (typeof value !== 'string') report(at, `expected a string, got ${describeValue(value)}`);
  else if (value.trim() === '') report(at, 'must not be empty');
  else return value;
  return '';
}

/** Reads a required integer > 0 that JSON consumers can hold exactly. */
export function readPositiveInt(obj: Record<string, unknown>, key: string, path: string, report: Report): number {
  const value = obj[key];
  const at = `${path}.${key}`;
  if (value === undefined) report(at, 'is required');
  else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    report(at, `expected a positive integer, got ${describeValue(value)}`);
  } else return value;
  return 0;
}

/**
 * Reads a required array of distinct non-empty strings, optionally
 * restricted to `allowed` and optionally required to be non-empty.
 */
export function readStringList<T extends string>(
  obj: Record<string, unknown>,
  key: string,
  path: string,
  report: Report,
  options: { allowed?: readonly T[]; nonEmpty?: boolean } = {},
): T[] {
  const value = obj[key];
  const at = `${path}.${key}`;
  if (value === undefined) {
    report(at, 'is required');
    return [];
  }
  if (!Array.isArray(value)) {
    report(at, `expected an array of strings, got ${describeValue(value)}`);
    return [];
  }
  if (options.nonEmpty && value.length === 0) report(at, 'must list at least one value');
  const seen = new Set<string>();
  const out: T[] = [];
  value.forEach((item: unknown, i) => {
    const itemAt = `${at}[${i}]`;
    if (typeof item !== 'string' || item === '') {
      report(itemAt, `expected a non-empty string, got ${describeValue(item)}`);
    } else if (options.allowed && !(options.allowed as readonly string[]).includes(item)) {
      report(itemAt, `${describeValue(item)} is not one of ${options.allowed.join(', ')}`);
    } else if (seen.has(item)) {
      report(itemAt, `duplicate entry ${describeValue(item)}`);
    } else {
      seen.add(item);
      out.push(item as T);
    }
  });
  return out;
}
