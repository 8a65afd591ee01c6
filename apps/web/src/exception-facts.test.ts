import { describe, expect, it } from 'vitest';
import { exceptionFacts } from './exception-facts.ts';

describe('exception facts', () => {
  it('reads the JSON the Weave Python SDK records', () => {
    const text = JSON.stringify({
      type: 'RateLimitError',
      message: '429 Too Many Requests',
      traceback: 'Traceback (most recent call last):\n  File "agent.py", line 3, in run\nRateLimitError: 429\n',
    });
    expect(exceptionFacts(text)).toEqual({
      type: 'RateLimitError',
      message: '429 Too Many Requests',
      stack: 'Traceback (most recent call last):\n  File "agent.py", line 3, in run\nRateLimitError: 429',
    });
    expect(exceptionFacts(JSON.stringify({ type: 'ValueError', message: 'bad', traceback: ['a\n', 'b\n'] }))).toEqual({
      type: 'ValueError',
      message: 'bad',
      stack: 'a\nb',
    });
  });

  it('reads a "Type: message" line and the stack under it', () => {
    expect(exceptionFacts('RateLimitError: 429 Too Many Requests')).toEqual({ type: 'RateLimitError', message: '429 Too Many Requests' });
    expect(exceptionFacts('TypeError: x is undefined\n    at run (agent.js:3:9)')).toEqual({
      type: 'TypeError',
      message: 'x is undefined',
      stack: '    at run (agent.js:3:9)',
    });
  });

  it('shows anything else whole, as the message', () => {
    expect(exceptionFacts('the tool timed out after 30 s')).toEqual({ message: 'the tool timed out after 30 s' });
    expect(exceptionFacts('{not json')).toEqual({ message: '{not json' });
    expect(exceptionFacts('{"a": 1}')).toEqual({ message: '{"a": 1}' });
  });
});
