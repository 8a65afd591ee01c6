// The importer's view of a line (each member's text as written) and the blanks a SQLite target
// drops from PostgreSQL's jsonb text: neither may touch strings, keys' order or number spellings.
import { describe, expect, it } from 'vitest';
import { memberTexts, minifyJson } from '../../src/transfer/json-text.ts';

describe('memberTexts', () => {
  it("gives each member's value as written: key order, spacing and number spellings kept", () => {
    const line = '{"a":{"zz":1.0,"aa":[1e2, -0.0]},"b": "x\\"}\\\\" ,"c":12345678901234567890,"d":null,"e":true,"f":[],"g":{}}';
    expect(Object.fromEntries(memberTexts(line))).toEqual({
      a: '{"zz":1.0,"aa":[1e2, -0.0]}',
      b: '"x\\"}\\\\"',
      c: '12345678901234567890',
      d: 'null',
      e: 'true',
      f: '[]',
      g: '{}',
    });
  });

  it('reads escaped keys, blanks around the line, an empty object, and keeps the last of a repeated key', () => {
    expect([...memberTexts(' { "\\u0061b" : [ "]" , {"}":1} ] , "x":1 , "x" : 2 } ')]).toEqual([
      ['ab', '[ "]" , {"}":1} ]'],
      ['x', '2'],
    ]);
    expect(memberTexts('{}').size).toBe(0);
    expect(memberTexts(' { } ').size).toBe(0);
  });
});

describe('minifyJson', () => {
  it("drops PostgreSQL's blanks between tokens and nothing inside strings", () => {
    expect(minifyJson('{"b": 1.0, "aa": [1, "x, y: z", {"q \\" r": -0.00001}], "zz": null}')).toBe(
      '{"b":1.0,"aa":[1,"x, y: z",{"q \\" r":-0.00001}],"zz":null}',
    );
    expect(minifyJson('[ 1 ,\n\t2\r\n]')).toBe('[1,2]');
    expect(minifyJson('"a \\\\" ')).toBe('"a \\\\"');
  });

  it('returns text without blanks as it is', () => {
    const text = '{"zz":1,"aa":"a b"}';
    expect(minifyJson(text)).toBe(text);
  });
});
