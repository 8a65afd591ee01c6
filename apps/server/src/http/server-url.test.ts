import { expect, it } from 'vitest';
import { serverUrl } from './server-url.ts';

it('names the address a browser on this machine reaches the server at', () => {
  expect(serverUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
  expect(serverUrl('0.0.0.0', 9000)).toBe('http://127.0.0.1:9000');
  expect(serverUrl('::', 9000)).toBe('http://[::1]:9000');
  expect(serverUrl('::1', 80)).toBe('http://[::1]:80');
  expect(serverUrl('weft.internal', 8080)).toBe('http://weft.internal:8080');
});
