import { expect, test } from 'vitest';
import { parseJsonLines } from './json-lines.ts';

test('parses one value per line and skips blank lines', () => {
  expect(parseJsonLines('{"a":1}\n\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
});

test('accepts CRLF line ends and a missing final newline', () => {
  expect(parseJsonLines('{"a":1}\r\n[2]')).toEqual([{ a: 1 }, [2]]);
});

test('an empty text is no values', () => {
  expect(parseJsonLines('')).toEqual([]);
});

test('names the line that is not JSON', () => {
  expect(() => parseJsonLines('{"a":1}\n{oops}\n')).toThrow(/line 2 is not JSON/);
});
