// WEFT_WRITE_EXAMPLES=1: writes the server's answers into the spec's response examples, so they
// stay what the server really answers. Only the text of each rewritten `value` changes (the rest
// of the YAML is left byte for byte); generated ids and times are kept as the examples had them.
// Then `pnpm gen`, and review the diff.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isNode, parseDocument, stringify } from 'yaml';
import type { ExampleResult } from './run-examples.ts';
import { keepGenerated } from './run-examples.ts';

const specDir = fileURLToPath(new URL('../../../../spec/', import.meta.url));

function rewrite(file: string, at: unknown[], next: (previous: unknown) => unknown): boolean {
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text);
  const node = doc.getIn(at, true);
  if (!isNode(node) || !node.range) return false;
  const [start, end] = node.range;
  const colon = text.lastIndexOf(':', start);
  const lineStart = text.lastIndexOf('\n', colon) + 1;
  const indent = ' '.repeat(colon - lineStart - 'value'.length + 2);
  // YAML 1.1 quoting: timestamps and yes/no stay strings for every YAML reader.
  const block = stringify(next(node.toJSON()), { version: '1.1', lineWidth: 0, flowCollectionPadding: true })
    .trimEnd()
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
  writeFileSync(file, `${text.slice(0, colon + 1)}\n${block}\n${text.slice(end).replace(/^\n/, '')}`);
  return true;
}

export function writeExamples(results: readonly ExampleResult[]): string[] {
  const root = parseDocument(readFileSync(`${specDir}openapi.yaml`, 'utf8'));
  const written: string[] = [];
  const done = new Set<string>();
  for (const r of results) {
    if (r.status !== 200 || !r.expected || !r.op.successMediaType) continue;
    // Several request examples may share one response example: the first one writes it.
    const target = `${r.operationId}/${r.expected.name}`;
    if (done.has(target)) continue;
    done.add(target);
    const [file, pointer] = String(root.getIn(['paths', r.op.path, '$ref'])).split('#/') as [string, string];
    const at = [pointer, r.op.method, 'responses', '200', 'content', r.op.successMediaType, 'examples', r.expected.name, 'value'];
    const jsonl = r.op.successMediaType === 'application/jsonl';
    const ok = rewrite(`${specDir}${file}`, at, (previous) => {
      const before =
        jsonl && typeof previous === 'string'
          ? previous
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as unknown)
          : previous;
      const kept = keepGenerated(r.actual, before);
      return jsonl ? `${(kept as unknown[]).map((l) => JSON.stringify(l)).join('\n')}\n` : kept;
    });
    if (ok) written.push(target);
  }
  return written;
}
