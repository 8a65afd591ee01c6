import { describe, expect, it } from 'vitest';
import { JsonNumber, JSON_MAX_DEPTH, parseLossless } from './lossless-json.ts';
import { pyJsonDumps, pyJsonDumpsValue, withPyJsonBytes } from './py-json.ts';

const dumpText = (text: string): string => pyJsonDumps(parseLossless(text));

describe('pyJsonDumps', () => {
  // Expected outputs are CPython json.dumps(json.loads(text), sort_keys=True).
  const cases: Array<[string, string]> = [
    ['{"b":1,"a":{"d":[1,{"z":null,"y":true}],"c":"x"}}', '{"a": {"c": "x", "d": [1, {"y": true, "z": null}]}, "b": 1}'],
    ['[[],[[]],{}]', '[[], [[]], {}]'],
    [' \n\t[ 1 ,\r\n 2 ] ', '[1, 2]'],
    ['[-1, -1.5, -0, -0.0, 0, -1e-400]', '[-1, -1.5, 0, -0.0, 0, -0.0]'],
    ['[1E400, -1e400, NaN, Infinity, -Infinity]', '[Infinity, -Infinity, NaN, Infinity, -Infinity]'],
    [
      '[123456789012345678901234567890, -98765432109876543210987654321]',
      '[123456789012345678901234567890, -98765432109876543210987654321]',
    ],
    ['[9007199254740993, 9007199254740993.0]', '[9007199254740993, 9007199254740992.0]'],
    ['[1e2, 1.50E+1, 100e-2, 0.000123, 1.0e-5]', '[100.0, 15.0, 1.0, 0.000123, 1e-05]'],
    ['["\\u007f", "\\u2028\\u2029", "\\ufeff"]', '["\\u007f", "\\u2028\\u2029", "\\ufeff"]'],
    ['"\\u0000\\u0001\\u001f\\b\\f\\n\\r\\t"', '"\\u0000\\u0001\\u001f\\b\\f\\n\\r\\t"'],
    ['"quote \\" backslash \\\\ slash \\/"', '"quote \\" backslash \\\\ slash /"'],
    ['"é😀\\ud800"', '"\\u00e9\\ud83d\\ude00\\ud800"'],
    ['{"a":1,"a":2}', '{"a": 2}'],
  ];
  it.each(cases)('%s → %s', (text, expected) => {
    expect(dumpText(text)).toBe(expected);
  });

  it('escapes DEL, U+2028 and raw control characters passed as JS strings', () => {
    expect(pyJsonDumps(['\x7f', '\u2028', '\x01\x1f', '~ '])).toBe('["\\u007f", "\\u2028", "\\u0001\\u001f", "~ "]');
  });

  it('sorts keys by code point, not UTF-16 unit', () => {
    // UTF-16 order would put "😀" (0xD83D…) before "\uFFFF"; Python puts it after.
    expect(dumpText('{"😀": 1, "\\uffff": 2, "a": 3}')).toBe('{"a": 3, "\\uffff": 2, "\\ud83d\\ude00": 1}');
    expect(['😀', '\uffff'].sort()).toEqual(['😀', '\uffff']); // the JS default this guards against
  });

  it('orders a lone surrogate key below U+E000, as Python code points do', () => {
    expect(dumpText('{"\\ue000": 1, "\\ud800": 2}')).toBe('{"\\ud800": 2, "\\ue000": 1}');
  });

  it('uses the right key order for objects sharing a first key but not a key set', () => {
    expect(dumpText('[{"m":1,"b":2},{"m":1,"z":2},{"m":1,"b":2,"a":0}]')).toBe(
      '[{"b": 2, "m": 1}, {"m": 1, "z": 2}, {"a": 0, "b": 2, "m": 1}]',
    );
  });

  it('handles strings longer than the writer buffer', () => {
    const long = 'x'.repeat(200_000);
    expect(pyJsonDumps({ long, after: 'é' })).toBe(`{"after": "\\u00e9", "long": "${long}"}`);
  });
});

describe('pyJsonDumpsValue', () => {
  it('treats safe integers as ints and other numbers as floats', () => {
    expect(pyJsonDumpsValue([1, -0, 1.5, 2 ** 53, 1e16, 0.00001, -(2 ** 53) + 1])).toBe(
      '[1, 0, 1.5, 9007199254740992.0, 1e+16, 1e-05, -9007199254740991]',
    );
  });

  it('emits bigint exactly and JsonNumber by lexeme', () => {
    expect(pyJsonDumpsValue({ b: 123456789012345678901234567890n, n: new JsonNumber('1.0') })).toBe(
      '{"b": 123456789012345678901234567890, "n": 1.0}',
    );
  });

  it('writes non-finite numbers the way Python does, not as null', () => {
    expect(pyJsonDumpsValue([NaN, Infinity, -Infinity])).toBe('[NaN, Infinity, -Infinity]');
  });

  it('drops undefined, functions and symbols like JSON.stringify', () => {
    const value = { a: undefined, b: 1, c: () => 1, d: Symbol('x'), e: [undefined, () => 1] };
    expect(pyJsonDumpsValue(value)).toBe('{"b": 1, "e": [null, null]}');
    expect(pyJsonDumpsValue({ only: undefined })).toBe('{}');
    expect(() => pyJsonDumpsValue(undefined)).toThrow(TypeError);
  });

  it('honours toJSON, including one that returns undefined', () => {
    const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(pyJsonDumpsValue({ when: date })).toBe('{"when": "2024-01-02T03:04:05.000Z"}');
    expect(pyJsonDumpsValue({ gone: { toJSON: () => undefined }, kept: 1 })).toBe('{"kept": 1}');
  });

  it('survives a toJSON that itself dumps (re-entrancy)', () => {
    const inner = { toJSON: () => pyJsonDumpsValue({ z: 1, y: 2 }) };
    expect(pyJsonDumpsValue({ inner, after: 'ok' })).toBe('{"after": "ok", "inner": "{\\"y\\": 2, \\"z\\": 1}"}');
  });

  it('reports cycles and excessive depth as clear errors', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => pyJsonDumpsValue(cyclic)).toThrow(/nesting deeper than/);
    let deep: unknown = 1;
    for (let i = 0; i < JSON_MAX_DEPTH + 1; i++) deep = [deep];
    expect(() => pyJsonDumpsValue(deep)).toThrow(RangeError);
    // and the shared writer is usable afterwards
    expect(pyJsonDumpsValue({ a: 1 })).toBe('{"a": 1}');
  });
});

describe('withPyJsonBytes', () => {
  it('hands over the ASCII bytes of the same text', () => {
    const bytes = withPyJsonBytes({ k: 'é' }, (b) => Buffer.from(b).toString('latin1'));
    expect(bytes).toBe('{"k": "\\u00e9"}');
  });
});
