// The traces list's optional columns (the column picker), the sort field behind each sortable
// header, the one-line preview of a call's inputs and output, and the text search's fields.
//
// The chosen columns live in the URL (`cols`, only when they differ from the default), like the
// filters and the sort: a link shows the view it was copied from, the back button undoes a pick,
// and nothing is left behind in the browser's storage.

export const COLUMNS = [
  { id: 'io', label: 'Inputs / output' },
  { id: 'op', label: 'Op' },
  { id: 'status', label: 'Status' },
  { id: 'latency', label: 'Latency' },
  { id: 'tokens', label: 'Tokens' },
  { id: 'cost', label: 'Cost' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'user', label: 'User' },
  { id: 'thread', label: 'Thread' },
] as const;
export type ColumnId = (typeof COLUMNS)[number]['id'];

/** What a first visit shows: what Weave's list shows, less the ids few people read. */
export const DEFAULT_COLUMNS: readonly ColumnId[] = ['io', 'op', 'status', 'latency', 'tokens', 'cost', 'feedback'];

const KNOWN = new Set<string>(COLUMNS.map((c) => c.id));

/** The `cols` parameter (comma-separated ids; `-` for none) as the shown columns, in picker order. */
export function parseColumns(param: string | null): ReadonlySet<ColumnId> {
  if (param === null) return new Set(DEFAULT_COLUMNS);
  return new Set(param.split(',').filter((id): id is ColumnId => KNOWN.has(id)));
}

/** The `cols` parameter for `shown`: undefined (no parameter) for the default set. */
export function formatColumns(shown: ReadonlySet<ColumnId>): string | undefined {
  const ids = COLUMNS.map((c) => c.id).filter((id) => shown.has(id));
  const isDefault = ids.length === DEFAULT_COLUMNS.length && ids.every((id) => DEFAULT_COLUMNS.includes(id));
  if (isDefault) return undefined;
  return ids.length === 0 ? '-' : ids.join(',');
}

export function toggleColumn(shown: ReadonlySet<ColumnId>, id: ColumnId, on: boolean): ReadonlySet<ColumnId> {
  const next = new Set(shown);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The server-side sort field of each sortable column: Weave's derived latency and status, and
 * Weft's token total and cost over the call's own usage (the cost priced as include_costs prices
 * the Cost column); the store computes each in SQL.
 */
export const SORT_FIELDS = {
  op: 'op_name',
  started: 'started_at',
  status: 'summary.weave.status',
  latency: 'summary.weave.latency_ms',
  tokens: 'summary.weave.total_tokens',
  cost: 'summary.weave.total_cost',
} as const;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function valueText(value: unknown): string {
  if (typeof value === 'string') return oneLine(value);
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

/**
 * A call's inputs or output on one line, at most `max` characters: a string as it is, an object as
 * `key: value` pairs (values as text, nested values as compact JSON), anything else as JSON.
 */
export function preview(value: unknown, max = 80): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object' && !Array.isArray(value)) {
    text = Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !k.startsWith('_'))
      .map(([k, v]) => `${k}: ${valueText(v)}`)
      .join(', ');
  } else text = valueText(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The fields a text search may name, from the calls at hand: each string-valued top-level input,
 * the output when it is a string, and each string-valued top-level key of an object output; plus
 * `keep` (the field already searched), so the choice survives a page that lacks it.
 */
export function searchFields(calls: ReadonlyArray<{ inputs?: unknown; output?: unknown }>, keep = ''): string[] {
  const fields = new Set<string>();
  const strings = (root: string, value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value))
      if (typeof v === 'string' && !k.includes('.') && !k.startsWith('_')) fields.add(`${root}.${k}`);
  };
  for (const call of calls) {
    strings('inputs', call.inputs);
    if (typeof call.output === 'string') fields.add('output');
    else strings('output', call.output);
  }
  if (keep) fields.add(keep);
  return [...fields].sort((a, b) =>
    a.startsWith('inputs') === b.startsWith('inputs') ? a.localeCompare(b) : a.startsWith('inputs') ? -1 : 1,
  );
}

/** A search field the store's query accepts: `output`, or one key of the inputs or the output. */
export const isSearchField = (field: string): boolean => /^(output|(inputs|output)\.[^.]+)$/.test(field);
