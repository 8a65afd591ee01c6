import { describe, expect, it } from 'vitest';
import { JsonNumber, JsonParseError, JSON_MAX_DEPTH, parseLossless, type JsonNode } from './lossless-json.ts';
import { toPlain } from './to-plain.ts';

function num(node: JsonNode): JsonNumber {
  if (!(node instanceof JsonNumber)) throw new Error(`not a number node: ${JSON.stringify(node)}`);
  return node;
}

describe('parseLossless', () => {
  it('keeps number lexemes and classifies int vs float', () => {
    const arr = parseLossless('[1, 1.0, 1e5, 2E-3, -0, 123456789012345678901234567890, NaN, Infinity, -Infinity]');
    expect(Array.isArray(arr)).toBe(true);
    const nums = (arr as JsonNode[]).map(num);
    expect(nums.map((n) => n.lexeme)).toEqual([
      '1',
      '1.0',
      '1e5',
      '2E-3',
      '-0',
      '123456789012345678901234567890',
      'NaN',
      'Infinity',
      '-Infinity',
    ]);
    expect(nums.map((n) => n.isFloat)).toEqual([false, true, true, true, false, false, true, true, true]);
  });

  it('parses scalars, nesting and whitespace like JSON.parse', () => {
    const text = ' \n\t{ "a" : [ true , false , null , "s" , { } , [ ] ] ,\r\n "b" : { "c" : "d" } } \n';
    expect(toPlain(parseLossless(text))).toEqual(JSON.parse(text));
  });

  it('decodes every escape form, including lone surrogates', () => {
    const s = parseLossless(String.raw`"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \ud800"`);
    expect(s).toBe('" \\ / \b \f \n \r \t é 😀 \ud800');
  });

  it('keeps unescaped non-ASCII text as is', () => {
    expect(parseLossless('"naïve 😀 \u2028"')).toBe('naïve 😀 \u2028');
  });

  it('keeps the last value for duplicate keys, as Python does', () => {
    expect(toPlain(parseLossless('{"a": 1, "b": 2, "a": 3}'))).toEqual({ a: 3, b: 2 });
  });

  it('treats __proto__ and constructor as ordinary keys', () => {
    const node = parseLossless('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, JsonNode>;
    expect(Object.keys(node)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((node as Record<string, unknown>).polluted).toBeUndefined();
    expect('toString' in node).toBe(false); // no Object.prototype on the chain

    const plain = toPlain(node) as Record<string, unknown>;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.hasOwn(plain, '__proto__')).toBe(true);
    expect(plain.polluted).toBeUndefined();
  });

  it('toPlain converts numbers with Number()', () => {
    expect(toPlain(parseLossless('[1.0, -0, 1E400, NaN, 12345678901234567890]'))).toEqual([1, -0, Infinity, NaN, 12345678901234567000]);
  });

  const malformed: Array<[string, string]> = [
    ['', 'end of input'],
    ['   ', 'end of input'],
    ['{', 'string key'],
    ['{"a"}', "':'"],
    ['{"a":1,}', 'string key'],
    ['{"a":1 "b":2}', "',' or '}'"],
    ['[1,]', 'unexpected character'],
    ['[1 2]', "',' or ']'"],
    ['[', 'end of input'],
    ['"abc', 'unterminated string'],
    ['"a\nb"', 'control character'],
    ['"\\x"', 'invalid escape'],
    ['"\\u12G4"', '\\u escape'],
    ['"\\u12"', '\\u escape'],
    ['01', 'after the JSON value'],
    ['1.', "after '.'"],
    ['.5', 'unexpected character'],
    ['1e', 'exponent'],
    ['-', 'expected a digit'],
    ['+1', 'unexpected character'],
    ['tru', 'expected true'],
    ['nul', 'expected null'],
    ['nan', 'expected null'],
    ['{"a":1} x', 'after the JSON value'],
    ["{'a':1}", 'string key'],
    ['[1]]', 'after the JSON value'],
  ];
  it.each(malformed)('rejects %j with a clear error', (text, fragment) => {
    let error: unknown;
    try {
      parseLossless(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JsonParseError);
    expect((error as Error).message).toContain(fragment);
  });

  it('reports the position of the problem', () => {
    expect(() => parseLossless('[1, 2, ?]')).toThrow(/position 7/);
  });

  it('accepts nesting up to JSON_MAX_DEPTH and rejects deeper input without overflowing', () => {
    const ok = '['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH);
    expect(() => parseLossless(ok)).not.toThrow();
    const tooDeep = '{"a":'.repeat(JSON_MAX_DEPTH + 1) + '1' + '}'.repeat(JSON_MAX_DEPTH + 1);
    expect(() => parseLossless(tooDeep)).toThrow(/nesting deeper than/);
  });

  it('can parse again after an error', () => {
    expect(() => parseLossless('[1,')).toThrow(JsonParseError);
    expect(toPlain(parseLossless('[1]'))).toEqual([1]);
  });
});

describe('JsonNumber', () => {
  it('validates and classifies hand-built lexemes', () => {
    expect(new JsonNumber('12').isFloat).toBe(false);
    expect(new JsonNumber('1.5e3').isFloat).toBe(true);
    expect(new JsonNumber('-Infinity').isFloat).toBe(true);
    expect(() => new JsonNumber('1_000')).toThrow(TypeError);
    expect(() => new JsonNumber('')).toThrow(TypeError);
  });
});
