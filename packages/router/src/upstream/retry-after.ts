// How long an upstream asked us to wait: `retry-after-ms` (milliseconds), else `retry-after`
// (seconds, or an HTTP date), as OpenAI's clients read them. Undefined when absent or unreadable.
type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

export function retryAfterMs(headers: IncomingHttpHeaders, now: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const after = header(headers, 'retry-after');
  if (after === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full jitter: a uniform wait in [0, min(max, base·2^retry)). */
export const backoffMs = (retry: number, base: number, max: number, random: () => number): number =>
  Math.floor(random() * Math.min(max, base * 2 ** retry));
