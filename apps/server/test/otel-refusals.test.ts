// What POST /otel/v1/traces refuses, as OTLP/HTTP says and never with a 5xx: bodies that do not
// decode (400), no project (400), no or a wrong key (401), another entity's project (403), other
// media types (415), bodies over BODY_LIMIT once inflated (413); spans that cannot be stored are
// counted in a partial success while the others are stored.
import { gzipSync } from 'node:zlib';
import { ExportTraceServiceRequest, ExportTraceServiceResponse } from '@weft/core';
import { fixtureSpan } from '@weft/core/testing';
import { expect, it } from 'vitest';
import { basic } from './otel/otel-clients.ts';
import { describeEachDatabase } from './test-server.ts';

const span = (spanId: string, start: bigint, end: bigint, name = 'step') =>
  fixtureSpan({ spanId: Buffer.from(spanId, 'hex'), name, startTimeUnixNano: String(start), endTimeUnixNano: String(end) });

const T0 = 1_749_000_000_000_000_000n;

function protobufExport(spans: Array<ReturnType<typeof span>>, resource: Record<string, string> = {}): Uint8Array<ArrayBuffer> {
  const attributes = Object.entries(resource).map(([key, v]) => ({ key, value: { stringValue: v } }));
  return new Uint8Array(
    ExportTraceServiceRequest.encode({
      resourceSpans: [
        { resource: { attributes, droppedAttributesCount: 0 }, scopeSpans: [{ scope: undefined, spans, schemaUrl: '' }], schemaUrl: '' },
      ],
    }).finish(),
  );
}

describeEachDatabase(
  'OTLP refusals',
  (getServer) => {
    const post = (body: BodyInit, headers: Record<string, string>) =>
      fetch(`${getServer().url}/otel/v1/traces`, { method: 'POST', body, headers });
    const alice = () => ({ Authorization: basic(getServer().aliceKey) });
    const protobuf = { 'Content-Type': 'application/x-protobuf' };
    const json = { 'Content-Type': 'application/json' };
    const stored = async (project: string) => (await getServer().client().callsStreamQuery({ project_id: project })).length;

    it('401 without a key or with a wrong one, before reading the body', async () => {
      const body = protobufExport([span('00000000000000a1', T0, T0 + 1n)]);
      const none = await post(body, { ...protobuf, project_id: 'acme/refused' });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect((await post(body, { ...protobuf, project_id: 'acme/refused', Authorization: basic('wrong') })).status).toBe(401);
    });

    it("403 for another entity's project, by header or by resource, and nothing is stored", async () => {
      const bob = { Authorization: basic(getServer().bobKey) };
      const body = protobufExport([span('00000000000000a2', T0, T0 + 1n)]);
      expect((await post(body, { ...protobuf, ...bob, project_id: 'acme/refused' })).status).toBe(403);
      const byResource = protobufExport([span('00000000000000a3', T0, T0 + 1n)], { 'wandb.entity': 'acme', 'wandb.project': 'refused' });
      expect((await post(byResource, { ...protobuf, ...bob })).status).toBe(403);
      expect(await stored('acme/refused')).toBe(0);
    });

    it('400 when neither the header nor the resource names a project', async () => {
      const res = await post(protobufExport([span('00000000000000a4', T0, T0 + 1n)]), { ...protobuf, ...alice() });
      expect(res.status).toBe(400);
      const { reason } = (await res.json()) as { reason: string };
      expect(reason).toContain('project_id');
      expect(reason).toContain('wandb.entity and wandb.project');
    });

    it('400 with a body for malformed protobuf, malformed JSON, a wrong shape and a corrupt gzip stream', async () => {
      const headers = { ...alice(), project_id: 'acme/bad-bodies' };
      // A whole envelope whose last span's name is not UTF-8: found only when that span is mapped,
      // after the statements of the 150 before it ran in the same transaction, which rolls back.
      const good = Array.from({ length: 150 }, (_, i) => span((0xb000 + i).toString(16).padStart(16, '0'), T0, T0 + 1n));
      const badName = protobufExport([...good, span('00000000000000a7', T0, T0 + 1n, 'bad-name')]);
      badName[Buffer.from(badName).indexOf('bad-name')] = 0xff;
      const cases: Array<[BodyInit, Record<string, string>, RegExp]> = [
        [Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]), protobuf, /Malformed OTLP protobuf/],
        [badName, protobuf, /Malformed OTLP protobuf: a span/],
        [Buffer.from([0x0a, 0x04, 0x12, 0x02, 0x0a]), protobuf, /Malformed OTLP protobuf/],
        ['{"resourceSpans": [', json, /Malformed OTLP\/JSON/],
        ['{"resourceSpans": 5}', json, /resourceSpans: expected an array/],
        ['{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "xyz"}]}]}]}', json, /traceId: expected an id in hex/],
        [
          Buffer.concat([gzipSync(protobufExport([span('00000000000000a5', T0, T0 + 1n)])).subarray(0, 20), Buffer.alloc(20, 7)]),
          { ...protobuf, 'Content-Encoding': 'gzip' },
          /could not be decompressed/,
        ],
      ];
      for (const [body, type, message] of cases) {
        const res = await post(body, { ...headers, ...type });
        expect(res.status, String(message)).toBe(400);
        expect(((await res.json()) as { reason: string }).reason).toMatch(message);
      }
      expect(await stored('acme/bad-bodies')).toBe(0);
    });

    it('415 for a media type OTLP does not use; 422 for a project_id header that is not <entity>/<project>', async () => {
      const res = await post('hello', { ...alice(), 'Content-Type': 'text/plain', project_id: 'acme/x' });
      expect(res.status).toBe(415);
      const bad = await post(protobufExport([span('00000000000000a6', T0, T0 + 1n)]), { ...protobuf, ...alice(), project_id: 'no-slash' });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { detail: Array<{ loc: string[] }> }).detail[0]!.loc).toEqual(['header', 'project_id']);
    });

    it('413 for a body over BODY_LIMIT once inflated, however small compressed', async () => {
      const bomb = gzipSync(Buffer.alloc(300 * 1024, 0));
      expect(bomb.length).toBeLessThan(2048);
      const res = await post(bomb, { ...protobuf, ...alice(), project_id: 'acme/bomb', 'Content-Encoding': 'gzip' });
      expect(res.status).toBe(413);
    });

    it('stores the spans it can and counts the others, in the request encoding', async () => {
      const project = 'acme/partial';
      const body = protobufExport([
        span('00000000000000b1', T0, T0 + 5_000_000n, 'fine'),
        span('00000000000000b2', T0 + 5_000_000n, T0, 'backwards'),
        span('0000000000000000', T0, T0 + 1n, 'zero id'),
      ]);
      const res = await post(body, { ...protobuf, ...alice(), project_id: project });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-protobuf/);
      const answer = ExportTraceServiceResponse.decode(new Uint8Array(await res.arrayBuffer()));
      expect(answer.partialSuccess?.rejectedSpans).toBe('2');
      expect(answer.partialSuccess?.errorMessage).toContain('ends before it starts');
      expect(answer.partialSuccess?.errorMessage).toContain('all zeros');
      const calls = await getServer().client().callsStreamQuery({ project_id: project });
      expect(calls.map((c) => c.op_name)).toEqual(['fine']);

      // The same in OTLP/JSON: a JSON answer, lowerCamelCase as OTLP's JSON encoding says.
      const jsonBody = {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: '0af7651916cd43dd8448eb211c80319d',
                    spanId: '00000000000000c1',
                    name: 'nan',
                    startTimeUnixNano: String(T0),
                    endTimeUnixNano: String(T0 + 1n),
                    attributes: [{ key: 'x', value: { doubleValue: 'NaN' } }],
                  },
                ],
              },
            ],
          },
        ],
      };
      const res2 = await post(JSON.stringify(jsonBody), { ...json, ...alice(), project_id: project });
      expect(res2.status).toBe(200);
      expect(await res2.json()).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: expect.stringContaining('NaN') } });
    });
  },
  { BODY_LIMIT: '256kb' },
);
