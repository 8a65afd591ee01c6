// Row search of the table viewer. Weave's table query filters rows only by digest (no text
// filter, in Weave's API or Weft's), so the viewer reads the table a chunk at a time and keeps the
// rows whose values contain the text; it stops at MAX_MATCHES matches or SCAN_LIMIT rows read,
// and says how far it read.

export const SCAN_CHUNK = 1000;
/** Rows read at most for one search (a larger table says the search stopped there). */
export const SCAN_LIMIT = 100_000;
export const MAX_MATCHES = 1000;

/** The text typed, as compared: trimmed and lower case; '' is no search. */
export function searchNeedle(text: string): string {
  return text.trim().toLocaleLowerCase();
}

/** True when any string, number or boolean in `value` (at any depth), or any key, contains `needle`. */
export function rowMatches(value: unknown, needle: string): boolean {
  if (needle === '') return true;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.toLocaleLowerCase().includes(needle)) return true;
    } else if (typeof v === 'number' || typeof v === 'boolean') {
      if (String(v).includes(needle)) return true;
    } else if (Array.isArray(v)) stack.push(...(v as unknown[]));
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k.toLocaleLowerCase().includes(needle)) return true;
        stack.push(x);
      }
    }
  }
  return false;
}

export interface ScanState {
  /** Chunks read so far (each SCAN_CHUNK rows, in the viewer's order). */
  chunksRead: number;
  rowsRead: number;
  matches: number;
}

/** Whether the scan reads another chunk: rows remain, under both limits. */
export function scanContinues(state: ScanState, rowCount: number): boolean {
  return state.rowsRead < rowCount && state.rowsRead < SCAN_LIMIT && state.matches < MAX_MATCHES;
}

/** A row number typed into "jump to row": an integer index of the table, else undefined. */
export function rowIndexOf(text: string, rowCount: number): number | undefined {
  if (!/^\s*\d+\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n < rowCount ? n : undefined;
}
