// Values in the order of their digests (JavaScript's string order, code unit by code unit), as
// /table/create inserts a table's rows: one global order keeps concurrent writers of overlapping
// rows from deadlocking (table-create.ts). A comparator over a large table's values is slow
// (BENCHMARKS.md, scenario 5): instead each value's first four characters, packed in a number
// above its index, go through the engine's numeric sort, and only values sharing those four
// characters are compared whole.

/** Characters of a digest packed in a sort key, 7 bits each (digests are ASCII). */
const PREFIX_CHARS = 4;
/** Room below the prefix for a value's index: larger lists take the comparator. */
const INDEX_LIMIT = 2 ** 24;

const byDigest = (a: { digest: string }, b: { digest: string }) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0);

export function sortByDigest<T extends { digest: string }>(values: readonly T[]): T[] {
  const n = values.length;
  if (n >= INDEX_LIMIT) return [...values].sort(byDigest);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const prefix = prefixOf(values[i]!.digest);
    if (prefix < 0) return [...values].sort(byDigest);
    keys[i] = prefix * INDEX_LIMIT + i;
  }
  keys.sort();
  const out = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = values[keys[i]! % INDEX_LIMIT]!;
  // A run of equal prefixes is put in order by the whole digests.
  for (let start = 0; start < n;) {
    const prefix = Math.floor(keys[start]! / INDEX_LIMIT);
    let end = start + 1;
    while (end < n && Math.floor(keys[end]! / INDEX_LIMIT) === prefix) end++;
    if (end - start > 1) out.splice(start, end - start, ...out.slice(start, end).sort(byDigest));
    start = end;
  }
  return out;
}

/** The first characters as a number in their order; -1 for a digest too short or not ASCII there. */
function prefixOf(digest: string): number {
  if (digest.length < PREFIX_CHARS) return -1;
  let key = 0;
  for (let k = 0; k < PREFIX_CHARS; k++) {
    const c = digest.charCodeAt(k);
    if (c > 0x7f) return -1;
    key = key * 128 + c;
  }
  return key;
}
