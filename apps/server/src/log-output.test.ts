// LOG_FORMAT: JSON lines unless asked for pretty output or on a terminal, and the pretty request
// line as short as the issue asks: method, path, status, time.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggerFor, requestSummary, usePrettyLogs } from './log-output.ts';

function capture(isTTY: boolean) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    }),
    { isTTY },
  );
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('log output', () => {
  it('is pretty on a terminal under auto, and as configured otherwise', () => {
    expect(usePrettyLogs('auto', true)).toBe(true);
    expect(usePrettyLogs('auto', false)).toBe(false);
    expect(usePrettyLogs('auto', undefined)).toBe(false);
    expect(usePrettyLogs('json', true)).toBe(false);
    expect(usePrettyLogs('pretty', false)).toBe(true);
  });

  it('prints a request as one short line', async () => {
    const out = capture(false);
    const logger = loggerFor({ logLevel: 'info', logFormat: 'pretty' }, out.stream);
    logger.info(
      {
        req: { id: 'r1', method: 'POST', url: '/call/start', headers: { 'user-agent': 'x'.repeat(300) } },
        res: { statusCode: 200 },
        responseTime: 3.4,
      },
      'request completed',
    );
    logger.info({ url: 'http://127.0.0.1:8080' }, 'weft listening');
    logger.flush();
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: POST \/call\/start 200 3ms$/);
    expect(lines[1]).toContain('weft listening');
    expect(requestSummary({ msg: 'x' } as never)).toBeUndefined();
  });
});
