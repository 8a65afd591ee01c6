import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { digestBytes, digestJsonText, digestOfValue, objectDigest, rowDigest, tableDigest } from './digest.ts';
import { parseLossless, type JsonNode } from './lossless-json.ts';
import { pyJsonDumps } from './py-json.ts';
import { WEAVE_OBJECT_VECTORS } from './weave-vectors.ts';

// Reference values computed by W&B Weave's trace server (CPython), plus another spelling of 1e15.
const vectors: Array<[string, string, string]> = [
  ...WEAVE_OBJECT_VECTORS.map((v): [string, string, string] => [v.text, v.canonical, v.digest]),
  ['{"n":1000000000000000.0}', '{"n": 1000000000000000.0}', 'cBXeqVGpNAcnYi2i4yZXK5B5CUNswajvDkXnzMpP8mo'],
];

describe('Weave reference vectors', () => {
  it.each(vectors)('%s', (text, canonical, digest) => {
    const node = parseLossless(text);
    expect(pyJsonDumps(node)).toBe(canonical);
    expect(objectDigest(node)).toBe(digest);
    expect(digestJsonText(text)).toBe(digest);
    expect(digestBytes(canonical)).toBe(digest);
  });

  it('row and table digests', () => {
    const rows = parseLossless('[{"a":1},{"a":2}]') as JsonNode[];
    const digests = rows.map(rowDigest);
    expect(digests).toEqual(['XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA', '5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4']);
    expect(tableDigest(digests)).toBe('1c95cdc46a75d6e7e971986a80adfcd676dd22f2222a3405c7743f3db8df6785');
    expect(tableDigest([...digests].reverse())).not.toBe(tableDigest(digests)); // row order matters
  });

  it('empty table is sha256 of the empty string', () => {
    expect(tableDigest([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('file digests hash the raw bytes', () => {
    expect(digestBytes(new Uint8Array())).toBe('47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU');
    expect(digestBytes(new TextEncoder().encode('hello world\n'))).toBe('qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc');
    expect(digestBytes('hello world\n')).toBe('qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc');
  });
});

describe('digestBytes', () => {
  it('never contains "-", "_" or padding', () => {
    for (let i = 0; i < 200; i++) {
      expect(digestBytes(`input ${i}`)).toMatch(/^[A-Za-z0-9XY]{43}$/);
    }
  });
});

describe('digestOfValue', () => {
  it('matches the lossless digest where JS numbers are unambiguous', () => {
    expect(digestOfValue({ b: 1, a: 'x' })).toBe('OFgg8Alv1Vj0CRMZ5Yp0LOv4d9w7rKGAmBiJ8cQOyoQ');
    expect(digestOfValue({ a: 0.1 })).toBe('Z0eawCmMsXoPHp9YHeUfpNkVyRjLBFAYRfJsXSrAXnw');
    // 1.0 is an int in JS, so it hashes as Python's 1, unlike the text '{"a":1.0}'.
    expect(digestOfValue({ a: 1.0 })).toBe('XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA');
  });
});

interface PythonVector {
  text: string;
  canonical: string;
  digest: string;
}

// Random irregular JSON texts and what CPython makes of them; regenerate
// with fixtures/gen-python-vectors.py.
const pythonVectors = JSON.parse(readFileSync(new URL('./fixtures/python-vectors.json', import.meta.url), 'utf8')) as PythonVector[];

describe('CPython cross-check', () => {
  it('has a meaningful number of cases', () => {
    expect(pythonVectors.length).toBeGreaterThanOrEqual(300);
  });

  it.each(pythonVectors.map((v, i) => [i, v] as const))('case %i', (_i, v) => {
    expect(pyJsonDumps(parseLossless(v.text))).toBe(v.canonical);
    expect(digestJsonText(v.text)).toBe(v.digest);
  });
});
