// The one body pipeline (src/http/body/): media types, charsets, compression, limits and
// malformed bodies are answered the same way on every body mode, with the documented bodies.
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from './test-server.ts';

describeEachDatabase(
  'body pipeline',
  (getServer) => {
    let server: TestServer;
    let basic: string;
    beforeEach(() => {
      server = getServer();
      basic = `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`;
    });

    async function send(path: string, body: BodyInit, headers: Record<string, string>, method = 'POST') {
      const res = await fetch(server.url + path, { method, headers: { authorization: basic, ...headers }, body });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
    }
    const json = { 'content-type': 'application/json' };
    const objBody = (objectId: string, val: string) => `{"obj":{"project_id":"acme/body","object_id":"${objectId}","val":${val}}}`;

    describe('JSON modes', () => {
      it('keeps number lexemes for digests however the body arrives (plain, gzip, BOM)', async () => {
        const plain = await send('/obj/create', objBody('a', '{"x":1.0}'), json);
        const zipped = await send('/obj/create', gzipSync(objBody('b', '{"x":1.0}')), { ...json, 'content-encoding': 'gzip' });
        const bom = await send('/obj/create', '\uFEFF' + objBody('c', '{"x":1.0}'), { 'content-type': 'application/json; charset=utf-8' });
        const integer = await send('/obj/create', objBody('d', '{"x":1}'), json);
        expect([plain.status, zipped.status, bom.status, integer.status]).toEqual([200, 200, 200, 200]);
        expect(zipped.body!.digest).toBe(plain.body!.digest);
        expect(bom.body!.digest).toBe(plain.body!.digest);
        expect(integer.body!.digest).not.toBe(plain.body!.digest);
      });

      it('refuses U+0000 and unpaired surrogates on every write path alike (one rule, both databases)', async () => {
        const bodies: Array<[string, string]> = [
          ['/annotation_queues', String.raw`{"project_id":"acme/body","name":"q","scorer_refs":["\udfff x"]}`],
          [
            '/call/start',
            String.raw`{"start":{"project_id":"acme/body","op_name":"\ud800","started_at":"2025-01-01T00:00:00Z","attributes":{},"inputs":{}}}`,
          ],
          [
            '/call/start',
            String.raw`{"start":{"project_id":"acme/body","op_name":"o","started_at":"2025-01-01T00:00:00Z","attributes":{},"inputs":{"x":"a\u0000b"}}}`,
          ],
        ];
        for (const [path, body] of bodies) {
          expect(await send(path, body, json), body).toMatchObject({
            status: 400,
            body: { error_type: 'InvalidRequest', reason: expect.stringContaining('surrogates') },
          });
        }
        // A pair is a character, and an escaped backslash is text.
        const fine = String.raw`{"project_id":"acme/body","name":"\ud83d\ude00 \\ud800","scorer_refs":[]}`;
        expect((await send('/annotation_queues', fine, json)).status).toBe(200);
      });

      it('reads a body with no Content-Type as JSON, as the Weave Python SDK sends it; text/plain stays 415', async () => {
        // fetch sets no Content-Type for bytes (a string would be text/plain).
        const bytes = (text: string) => new TextEncoder().encode(text);
        const created = await send('/obj/create', bytes(objBody('no-type', '{"x":1.0}')), {});
        expect(created.status).toBe(200);
        const typed = await send('/obj/create', objBody('typed', '{"x":1.0}'), json);
        expect(created.body?.digest).toBe(typed.body?.digest);
        const read = await send('/obj/read', bytes('{"project_id":"acme/body","object_id":"no-type","digest":"latest"}'), {});
        expect(read).toMatchObject({ status: 200, body: { obj: { val: { x: 1 } } } });
        const invalid = await send('/obj/read', bytes('{"project_id":"acme/body"}'), {});
        expect(invalid.status).toBe(422);
        expect((await send('/obj/create', objBody('text', '1'), { 'content-type': 'text/plain' })).status).toBe(415);
      });

      it('refuses a charset other than UTF-8 with 415 before reading', async () => {
        const r = await send('/obj/create', Buffer.from(objBody('e', '1'), 'utf16le'), {
          'content-type': 'application/json; charset=utf-16',
        });
        expect(r).toMatchObject({ status: 415, body: { error_type: 'UnsupportedMediaType', reason: expect.stringContaining('UTF-16') } });
      });

      it('refuses an unknown content encoding with 415 and a corrupt gzip body with 400', async () => {
        expect(await send('/objs/query', '{}', { ...json, 'content-encoding': 'zstd' })).toMatchObject({
          status: 415,
          body: { error_type: 'UnsupportedMediaType', reason: expect.stringContaining('zstd') },
        });
        const corrupt = Buffer.concat([gzipSync('{"project_id":"acme/body"}').subarray(0, 12), Buffer.from('not gzip at all')]);
        expect(await send('/objs/query', corrupt, { ...json, 'content-encoding': 'gzip' })).toMatchObject({
          status: 400,
          body: { error_type: 'BadRequest', reason: expect.stringContaining('decompressed') },
        });
      });

      it('counts the limit after inflating: a small gzip bomb is 413', async () => {
        const bomb = gzipSync(`{"project_id":"acme/body","pad":"${' '.repeat(1024 * 1024)}"}`);
        expect(bomb.length).toBeLessThan(2048); // under BODY_LIMIT as sent
        expect(await send('/objs/query', bomb, { ...json, 'content-encoding': 'gzip' })).toEqual({
          status: 413,
          headers: expect.anything(),
          body: { reason: 'Request too large', error_type: 'RequestTooLarge' },
        });
      });

      it('refuses numbers that would not read back as sent (big integers, beyond double range) with 422', async () => {
        for (const n of ['12345678901234567890123', '1e400', '-1e400', '9007199254740993']) {
          const r = await send('/obj/create', objBody(`n${n.length}`, `{"x":${n}}`), json);
          expect(r.status, n).toBe(422);
          expect(r.body, n).toEqual({
            detail: [{ loc: ['body'], msg: expect.stringContaining(n.slice(0, 10)), type: 'number_out_of_range' }],
          });
        }
        // Within range, and digit runs inside strings, are fine.
        const ok = await send(
          '/obj/create',
          objBody('fine', '{"x":9007199254740991,"y":1e300,"id":"12345678901234567890123","z":0.1234567890123456789}'),
          json,
        );
        expect(ok.status).toBe(200);
        const read = await send('/obj/read', JSON.stringify({ project_id: 'acme/body', object_id: 'fine', digest: ok.body!.digest }), json);
        expect(read.body).toMatchObject({ obj: { val: { x: 9007199254740991, y: 1e300, id: '12345678901234567890123' } } });
      });
    });

    describe('stream mode (the trajectory log)', () => {
      it('applies the same value rules to each trajectory as every JSON body', async () => {
        const bearer = { authorization: `Bearer ${server.aliceKey}` };
        const model = (await (
          await fetch(`${server.url}/v1/preview/models`, {
            method: 'POST',
            headers: { ...bearer, ...json },
            body: JSON.stringify({ entity: 'acme', project: 'body', name: 'm', base_model: 'b' }),
          })
        ).json()) as { id: string };
        const log = (trajectory: string) =>
          fetch(`${server.url}/v1/preview/models/${model.id}/log`, {
            method: 'POST',
            headers: { ...bearer, ...json },
            body: `{"split":"val","trajectory_groups":[{"trajectories":[${trajectory}]}]}`,
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
        expect(await log('{"reward":12345678901234567890123}')).toMatchObject({
          status: 422,
          body: { detail: [{ type: 'number_out_of_range' }] },
        });
        expect(await log(String.raw`{"reward":1,"messages_and_choices":[{"role":"user","content":"\ud800"}]}`)).toMatchObject({
          status: 400,
          body: { error_type: 'InvalidRequest' },
        });
        expect(await log('{"reward":1}')).toMatchObject({ status: 200, body: { trajectory_count: 1 } });
      });

      it('counts LOG_BODY_LIMIT after inflating and answers a corrupt gzip body with 400', async () => {
        const send = (body: Buffer) =>
          fetch(`${server.url}/v1/preview/models/0197331c-0000-7000-8000-000000000000/log`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.aliceKey}`, ...json, 'content-encoding': 'gzip' },
            body: new Uint8Array(body),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
        const bomb = gzipSync(`{"split":"val","pad":"${' '.repeat(1024 * 1024)}","trajectory_groups":[]}`);
        expect(bomb.length).toBeLessThan(64 * 1024);
        expect(await send(bomb)).toEqual({ status: 413, body: { reason: 'Request too large', error_type: 'RequestTooLarge' } });
        const corrupt = Buffer.concat([gzipSync('{"split":"val","trajectory_groups":[]}').subarray(0, 12), Buffer.from('garbage')]);
        expect(await send(corrupt)).toMatchObject({ status: 400, body: { error_type: 'BadRequest' } });
      });
    });

    describe('multipart', () => {
      const form = (bytes: number) => {
        const f = new FormData();
        f.set('project_id', 'acme/body');
        f.set('file', new Blob([Buffer.alloc(bytes, 7)]), 'f.bin');
        return f;
      };
      it('stores an upload within BODY_LIMIT', async () => {
        const r = await send('/file/create', form(100), {});
        expect(r).toMatchObject({ status: 200, body: { digest: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
      });
      it('answers an upload over BODY_LIMIT with 413', async () => {
        expect(await send('/file/create', form(4096), {})).toMatchObject({ status: 413, body: { error_type: 'RequestTooLarge' } });
      });
      it('answers a malformed form with 400, never 500', async () => {
        const bad = [
          '',
          '--x\r\n\r\nno headers\r\n--x--\r\n',
          '--other\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--other--\r\n',
        ];
        for (const body of bad) {
          const r = await send('/file/create', body, { 'content-type': 'multipart/form-data; boundary=x' });
          expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
          expect(r.status, JSON.stringify(body)).toBeLessThan(500);
        }
      });
      it('refuses JSON on a multipart operation with 415', async () => {
        expect(await send('/file/create', '{"project_id":"acme/body"}', json)).toMatchObject({
          status: 415,
          body: { error_type: 'UnsupportedMediaType' },
        });
      });
    });

    describe('routing', () => {
      it('answers a known path with the wrong method with 405 and Allow', async () => {
        const r = await send('/obj/read', undefined as unknown as BodyInit, {}, 'GET');
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('POST');
        expect(r.body).toMatchObject({ error_type: 'MethodNotAllowed' });
      });
      it('answers HEAD on a GET operation', async () => {
        const res = await fetch(server.url + '/health', { method: 'HEAD' });
        expect(res.status).toBe(200);
      });
    });
  },
  { BODY_LIMIT: '2kb', LOG_BODY_LIMIT: '64kb' },
);
