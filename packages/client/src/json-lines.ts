// JSON Lines (https://jsonlines.org): one JSON value per line, as Weave streams query results.

/**
 * Parses every non-blank line of `text` as JSON. The caller names the type of the lines (the
 * schema says which); nothing is validated here.
 */
export function parseJsonLines<T = unknown>(text: string | undefined): T[] {
  const values: T[] = [];
  // openapi-fetch gives no text at all for `Content-Length: 0`: an empty stream has no lines.
  const lines = (text ?? '').split('\n');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim(); // also drops the \r of CRLF line ends
    if (line === '') continue;
    try {
      values.push(JSON.parse(line) as T);
    } catch (error) {
      throw new SyntaxError(`JSON Lines: line ${index + 1} is not JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  return values;
}
