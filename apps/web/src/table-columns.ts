// The columns of a table's rows: top-level keys, and one level of nested keys as dot paths (the
// paths table/query sorts by), in first-seen order over the rows read so far.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MAX_COLUMNS = 40;

export function columnsOf(rows: readonly unknown[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) {
    if (!isObject(row)) {
      columns.add('');
      continue;
    }
    for (const [key, value] of Object.entries(row)) {
      if (isObject(value) && Object.keys(value).length > 0 && !key.startsWith('_')) {
        for (const sub of Object.keys(value)) columns.add(`${key}.${sub}`);
      } else columns.add(key);
      if (columns.size >= MAX_COLUMNS) return [...columns];
    }
  }
  return [...columns];
}

/** The value at a dot path ('' is the row itself). */
export function valueAt(row: unknown, path: string): unknown {
  if (path === '') return row;
  let v: unknown = row;
  for (const part of path.split('.')) {
    if (!isObject(v) && !Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

export function cellText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
