// The sliced parser must answer exactly as the one-piece parser does (parse-json.ts): the same
// value for every body, the same status for every refusal, wherever the chunks are cut.
import fc from 'fast-check';
import { JsonNumber, JsonText, nativeJsonDisabled, newJsonObject, parseLossless, valueDigest, type JsonNode } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { parseJsonChunks, parseLosslessJsonChunks } from './parse-json-chunks.ts';
import { bodyText, parseStrictJson } from './parse-json.ts';

type Outcome = { value: unknown } | { status: unknown };

function onePiece(bytes: Buffer): Outcome {
  try {
    return { value: parseStrictJson(bodyText(bytes)) };
  } catch (err) {
    return { status: (err as { status?: unknown }).status };
  }
}

async function sliced(chunks: Buffer[]): Promise<Outcome> {
  try {
    return { value: await parseJsonChunks(chunks) };
  } catch (err) {
    return { status: (err as { status?: unknown }).status };
  }
}

/** The lossless read's plain value, or its refusal. */
async function slicedLossless(chunks: Buffer[]): Promise<Outcome> {
  try {
    return { value: (await parseLosslessJsonChunks(chunks)).value };
  } catch (err) {
    return { status: (err as { status?: unknown }).status };
  }
}

/** A lossless tree with every container kept as text (JsonText) parsed: what a reader looking inside sees. */
function resolved(node: JsonNode): JsonNode {
  if (node instanceof JsonText) return resolved(node.tree());
  if (Array.isArray(node)) return node.map(resolved);
  if (node === null || typeof node !== 'object' || node instanceof JsonNumber) return node;
  const out = newJsonObject();
  for (const key of Object.keys(node)) out[key] = resolved((node as Record<string, JsonNode>)[key]!);
  return out;
}

/** `bytes` cut at the given offsets (anywhere, inside a UTF-8 character included). */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

const texts = fc.oneof(
  fc.constantFrom('', ' ', '{}', '[]', '{} x'),
  fc.json({ depthSize: 'medium' }),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  // Multi-byte characters (cut between chunks) and lone surrogates (escaped by JSON.stringify).
  fc.jsonValue({ stringUnit: 'grapheme' }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ stringUnit: 'binary' }).map((v) => JSON.stringify(v)),
  // Mutations: a character dropped or doubled, escapes and numbers on the edge of the rules.
  fc
    .tuple(
      fc.json(),
      fc.nat(),
      fc.constantFrom(
        '',
        '\\',
        '"',
        '}',
        ']',
        ',',
        '1e400',
        '12345678901234567890',
        '\\u0000',
        '\\ud800',
        '\\udc00',
        '\u0001',
        '\t',
        '01',
        '-',
        '1.',
        '+1',
        'tru',
        'nulll',
        '0x10',
      ),
    )
    .map(([t, at, ins]) => t.slice(0, at % (t.length + 1)) + ins + t.slice((at % (t.length + 1)) + 1)),
);

describe('parseJsonChunks', () => {
  it('answers as the one-piece parser for any body cut anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(texts, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (text, offsets, bom) => {
        const bytes = Buffer.from((bom ? '\ufeff' : '') + text);
        expect(await sliced(cut(bytes, offsets))).toEqual(onePiece(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a lossless body once, answering its plain value and refusals as the one-piece parser does', async () => {
    await fc.assert(
      fc.asyncProperty(texts, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (text, offsets, bom) => {
        const bytes = Buffer.from((bom ? '\ufeff' : '') + text);
        const expected = onePiece(bytes);
        const got = await slicedLossless(cut(bytes, offsets));
        if ('value' in expected) expect(got).toStrictEqual(expected);
        else expect(got).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('builds the lossless tree (number lexemes, null-prototype objects) exactly as parseLossless does', async () => {
    await fc.assert(
      fc.asyncProperty(
        texts.filter((t) => t.trim() !== '' && 'value' in onePiece(Buffer.from(t))),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (text, offsets) => {
          const { source } = await parseLosslessJsonChunks(cut(Buffer.from(text), offsets));
          expect(resolved(source)).toStrictEqual(parseLossless(text));
        },
      ),
      { numRuns: 1000 },
    );
    // Lexemes kept whole, in containers larger than a raw piece too (read again piece by piece).
    const text = `{"a":[1.0,1,-0,2.50e3,${'{"x":1.10},'.repeat(10_000)}null],"__proto__":{"k":1E2}}`;
    const { source, value } = await parseLosslessJsonChunks([Buffer.from(text)]);
    const tree = source as { a: JsonNode[] };
    expect(value).toStrictEqual(JSON.parse(text));
    expect(resolved(tree)).toStrictEqual(parseLossless(text));
    expect((tree.a[0] as JsonNumber).lexeme).toBe('1.0');
    expect(Object.getPrototypeOf(tree)).not.toBe(Object.prototype);
  });

  it('keeps each container read whole as its exact text, parsed only when looked inside', async () => {
    const row = (i: number) => `{ "i" : ${i}.0, "s": "\\u00e9\\/", "n": [ 1E2, -0 ] }`;
    const text = `{"table":{"rows":[${Array.from({ length: 3000 }, (_, i) => row(i)).join(' , ')}]}}`;
    const tree = (await parseLosslessJsonChunks([Buffer.from(text)])).source as { table: { rows: JsonNode[] } };
    const rows = tree.table.rows;
    expect(rows).toHaveLength(3000);
    rows.forEach((r, i) => {
      expect(r).toBeInstanceOf(JsonText);
      expect((r as JsonText).text).toBe(row(i));
    });
    expect(resolved(rows[7]!)).toStrictEqual(parseLossless(row(7)));
  });

  it('reads an empty body (or a byte-order mark alone) as {}, and blank text as malformed', async () => {
    for (const body of ['', '\ufeff', ' ', '\ufeff \n']) {
      const bytes = Buffer.from(body);
      expect(await sliced(cut(bytes, [1, 2]))).toEqual(onePiece(bytes));
    }
    expect(onePiece(Buffer.from('\ufeff'))).toEqual({ value: {} });
  });

  it('decodes strings longer than a piece, escapes and surrogate pairs cut at every offset', async () => {
    // 13 characters per unit: the pairs and escapes fall on every position of the piece boundary.
    for (const unit of ['a\\ud83d\\ude00', 'ab\\\\\\\\\\n\\"\\u00e9', 'é😀\\\\ud83d\\t\\u2028x']) {
      const text = `{"s":"${unit.repeat(60_000)}","k":1}`;
      const bytes = Buffer.from(text);
      const expected = JSON.parse(text) as unknown;
      for (const offsets of [[], [65_536 * 3 + 1], [1, 2, 3, 300_001, 300_002]]) {
        expect(await sliced(cut(bytes, offsets))).toEqual({ value: expected });
      }
    }
  });

  it('refuses an unpaired surrogate or U+0000 inside a long string, as the one-piece parser does', async () => {
    for (const bad of ['\\ud83d', '\\ude00', '\\u0000', '\\ud83dx\\ude00']) {
      for (const before of [262_140, 262_141, 262_143, 262_144, 262_150]) {
        const bytes = Buffer.from(`{"s":"${'a'.repeat(before)}${bad}${'b'.repeat(1000)}"}`);
        expect(await sliced(cut(bytes, [70_000]))).toEqual({ status: 400 });
        expect(onePiece(bytes)).toEqual({ status: 400 });
      }
    }
  });

  it('gives other work the event loop while it parses a large body', async () => {
    const bytes = Buffer.from(JSON.stringify({ batch: Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'x'.repeat(20) })) }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const value = (await parseJsonChunks(cut(bytes, [1 << 20, 2 << 20]))) as { batch: unknown[] };
      expect(value.batch).toHaveLength(100_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(10);
  });

  it('gives other work the event loop while it reads a large lossless body and derives its plain value', async () => {
    // Rows read whole, and a long list of scalars (each a node of the tree, converted one by one).
    const rows = Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'x'.repeat(20) }));
    const numbers = Array.from({ length: 300_000 }, (_, i) => i + 0.5);
    const bytes = Buffer.from(JSON.stringify({ rows, numbers }));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      const { value } = await parseLosslessJsonChunks(cut(bytes, [1 << 20, 2 << 20]));
      expect(value).toStrictEqual({ rows, numbers });
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(10);
  });

  it('refuses a number longer than 1,024 characters, as the one-piece parser does, without reading all of it', async () => {
    const huge = Buffer.from(`{"n":0.${'1'.repeat(1_000_000)}}`);
    expect(await sliced([huge])).toEqual({ status: 422 });
    for (const n of [`0.${'1'.repeat(1022)}`, `-1${'0'.repeat(14)}.${'5'.repeat(1003)}e-10`]) {
      expect(n.length).toBe(1024);
      const ok = Buffer.from(`{"n":${n},"pad":"${' '.repeat(70_000)}"}`);
      expect(await sliced([ok])).toEqual({ value: JSON.parse(ok.toString()) as unknown });
      expect(onePiece(Buffer.from(`{"n":${n}}`))).toEqual({ value: { n: Number(n) } });
      const long = Buffer.from(`{"n":${n.replace('.', '.1')},"pad":"${' '.repeat(70_000)}"}`);
      expect(await sliced([long])).toEqual({ status: 422 });
      expect(onePiece(Buffer.from(`{"n":${n.replace('.', '.1')}}`))).toEqual({ status: 422 });
    }
    // A literal is never longer than `false`: a malformed body (400), not a limit.
    expect(await sliced([Buffer.from(`[${'t'.repeat(100_000)}]`)])).toEqual({ status: 400 });
  });

  describe('table rows kept as text (keptAsText)', () => {
    const isRow = (path: readonly (string | number)[]) =>
      path.length === 3 && path[0] === 'table' && path[1] === 'rows' && typeof path[2] === 'number';
    const row = (i: number) => `{"i":${i}.0,"s":"é ${'x'.repeat(i % 50)}","n":[1E2,-0,{"k":null}]}`;
    const body = (rows: string[]) => Buffer.from(`{"table":{"project_id":"a/b","rows":[${rows.join(',')}]}}`);

    // Without the addon nothing can check a row's text but JSON.parse: every row is parsed, as the next tests expect.
    it.skipIf(nativeJsonDisabled)(
      'leaves each row unparsed: its text stands in the plain value, with its stored text and digest made',
      async () => {
        const texts = Array.from({ length: 3000 }, (_, i) => row(i));
        // A row spelt with blanks and an escape: stored minified, as JSON.stringify escapes, digested as the same value.
        texts[5] = ' { "i" : 5.0 , "s" : "\\u00e9 xxxxx" , "n" : [ 1E2 , -0 , { "k" : null } ] } '.trim();
        const { value, source } = await parseLosslessJsonChunks(cut(body(texts), [70_000, 700_001]), isRow);
        const plainRows = (value as { table: { project_id: string; rows: unknown[] } }).table;
        const rows = (source as { table: { rows: JsonNode[] } }).table.rows;
        expect(plainRows.project_id).toBe('a/b');
        expect(rows).toHaveLength(3000);
        rows.forEach((node, i) => {
          expect(node).toBeInstanceOf(JsonText);
          const t = node as JsonText;
          expect(plainRows.rows[i]).toBe(t);
          expect(t.text).toBe(texts[i]);
          expect(t.stored).toBe(i === 5 ? row(5) : texts[i]);
          // Made ahead on the digest thread: what valueDigest computes from the tree.
          expect(t.digested).toEqual(valueDigest(parseLossless(texts[i]!)));
        });
      },
    );

    it('parses what is not a plain row as before: a list, a row the addon leaves to its tree, a row elsewhere', async () => {
      const texts = Array.from({ length: 3000 }, (_, i) => row(i));
      texts[10] = '[1,2]';
      texts[11] = '{"a":1,"a":2}'; // a repeated key: JSON.parse keeps the last
      texts[12] = '{"7":1,"b":2}'; // an array-index key: JavaScript puts it first
      const text = `{"other":[${row(1)}],"table":{"project_id":"a/b","rows":[${texts.join(',')}]}}`;
      const { value, source } = await parseLosslessJsonChunks([Buffer.from(text)], isRow);
      const plain = value as { other: unknown[]; table: { rows: unknown[] } };
      expect(plain.other[0]).toStrictEqual(JSON.parse(row(1)));
      expect(plain.table.rows[10]).toStrictEqual([1, 2]);
      expect(plain.table.rows[11]).toStrictEqual({ a: 2 });
      expect(plain.table.rows[12]).toStrictEqual({ 7: 1, b: 2 });
      const rows = (source as { table: { rows: JsonText[] } }).table.rows;
      for (const i of [10, 11, 12]) expect(rows[i]!.stored).toBeUndefined();
      expect(resolved(source)).toStrictEqual(parseLossless(text));
    });

    it('refuses a malformed row at its place, as without keeping rows, before a later problem of the body', async () => {
      const texts = Array.from({ length: 3000 }, (_, i) => row(i));
      texts[2000] = '{"a":1,}';
      for (const after of ['', ',"n":1e999', '}}}']) {
        const bytes = Buffer.from(`{"table":{"project_id":"a/b","rows":[${texts.join(',')}]${after}}}`);
        const kept = await parseLosslessJsonChunks([bytes], isRow).catch((err: Error & { status?: number }) => err);
        const plain = await parseLosslessJsonChunks([bytes]).catch((err: Error & { status?: number }) => err);
        expect(kept).toBeInstanceOf(Error);
        expect((kept as { status?: number }).status).toBe(400);
        expect((kept as Error).message).toBe((plain as Error).message);
      }
    });
  });
});
