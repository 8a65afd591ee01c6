// Cases of OTLP trace ingest. The body is OTLP/JSON here (the client's JSON); protobuf and real
// exporters are exercised by the server's own tests (apps/server/test/otel-*.test.ts).
import type { WeftClient } from '@weft/client';
import type { CaseContext, ExtraInit, OperationCase } from './case-types.ts';

/** One finished span with fresh ids, in OTLP/JSON. */
function exportOf(c: CaseContext) {
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
  const start = BigInt(Date.now()) * 1_000_000n;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'contract' } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: `1${hex(31)}`,
                spanId: `1${hex(15)}`,
                name: c.unique('span'),
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + 1_000_000n),
              },
            ],
          },
        ],
      },
    ],
  };
}

const post = (api: WeftClient, projectId: string, body: unknown, extra?: ExtraInit) =>
  api.POST('/otel/v1/traces', { params: { header: { project_id: projectId } }, body: body as never, ...extra });

export const otelCases = {
  otelExport: {
    tenancy: 'project',
    request: (api, c, extra) => post(api, c.projectId, exportOf(c), extra),
    invalid: [
      {
        name: 'a project_id header that is not <entity>/<project>',
        loc: ['header', 'project_id'],
        send: (api, c) => post(api, 'no-slash', exportOf(c)),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
