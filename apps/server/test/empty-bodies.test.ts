// Empty and missing bodies, on every operation that takes one (new operations included, as they
// come from the spec): no body at all, a Content-Type with no body, `Content-Length: 0`, an empty
// chunked body. A JSON operation answers 422 naming `body` as missing, as Weave's (FastAPI's)
// servers do (the router's OpenAI wire OpenAI's 400); the others (OTLP, multipart, the trajectory log) a 4xx of their own. Never a 500.
import { request } from 'node:http';
import { expect, it } from 'vitest';
import { operations } from '../src/http/spec.ts';
import { describeEachDatabase } from './test-server.ts';

const MISSING = { detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] };

type Shape = 'no body' | 'content type only' | 'length 0' | 'empty chunked';

/** One request with exactly the framing asked for (fetch would add or drop headers). */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  shape: Shape,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string> = { ...headers };
    if (shape !== 'no body') all['content-type'] = 'application/json';
    if (shape === 'length 0') all['content-length'] = '0';
    if (shape === 'empty chunked') all['transfer-encoding'] = 'chunked';
    const req = request(`${url}${path}`, { method, headers: all }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describeEachDatabase('empty and missing bodies', (getServer) => {
  for (const op of operations.filter((o) => o.hasRequestBody)) {
    it(`${op.operationId}: 4xx with the documented body for every empty shape`, async () => {
      const { url, aliceKey } = getServer();
      const authorization =
        op.schemes[0] === 'bearer' ? `Bearer ${aliceKey}` : `Basic ${Buffer.from(`api:${aliceKey}`).toString('base64')}`;
      const path =
        op.path.replace(/\{[^}]+\}/g, 'x') + (op.parameters.some((p) => p.in === 'query' && p.required) ? '?project_id=acme/p' : '');
      const headers: Record<string, string> = { authorization };
      for (const p of op.parameters) if (p.in === 'header' && p.required) headers[p.name] = 'acme/p';
      for (const shape of ['no body', 'content type only', 'length 0', 'empty chunked'] as const) {
        const { status, body } = await send(url, op.method.toUpperCase(), path, headers, shape);
        expect(status, `${shape}: ${body}`).toBeGreaterThanOrEqual(400);
        expect(status, `${shape}: ${body}`).toBeLessThan(500);
        // The router's OpenAI wire answers OpenAI's 400 naming no field (the whole body is missing).
        if (op.errorShape === 'openai')
          expect([status, JSON.parse(body)], shape).toEqual([
            400,
            {
              error: { message: expect.stringMatching(/required/i) as string, type: 'invalid_request_error', param: null, code: 'missing' },
            },
          ]);
        else if (op.bodyMode === 'json' || op.bodyMode === 'lossless') expect([status, JSON.parse(body)], shape).toEqual([422, MISSING]);
        else
          expect(Object.keys(JSON.parse(body) as object), shape).toEqual(
            expect.arrayContaining([expect.stringMatching(/^(detail|reason)$/)]),
          );
      }
    });
  }
});
