// The Weave TypeScript SDK's wrapOpenAI, tracing to Weft, with an `openai` client whose baseURL is a
// router: the router's call must land in the SDK's trace as a child of the SDK's
// `openai.chat.completions.create` call. The router here is a stand-in that does what the
// gateway handler does with a request's headers (parseParent, routerProject, the recorder) on
// the same database as the Weft server, so the SDK script (weave-openai-script.mjs), the header
// convention and the recorder are checked together, on both databases.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadCatalogue } from '@weft/core';
import { createStore, openDatabase, type Db } from '@weft/store';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCallRecorder, type CallRecorder } from '../../src/router/record-call.ts';
import { routerProject } from '../../src/router/router-project.ts';
import { parseParent } from '../../src/router/trace-context.ts';
import { describeEachDatabase } from '../test-server.ts';
import { runSdkScript, type SdkRun } from './run-sdk-script.ts';

const PROJECT = 'acme/weave-openai-e2e';
const ALICE = { username: 'alice', entities: ['acme'], keyId: 'test' };
const pricing = { prompt: '0.000001', completion: '0.000002', input_cache_read: '0', request: '0', image: '0' };

interface SdkCall {
  id: string;
  op_name: string;
  trace_id: string;
  parent_id: string | null;
}
interface RouterCall {
  id: string;
  op_name: string;
  trace_id: string;
  parent_id?: string | null;
  attributes: { weave?: { source?: string } };
  inputs: Record<string, unknown>;
  summary: Record<string, unknown>;
}

/** An OpenAI-compatible stand-in for Weft's router handler: answers and records through the recorder. */
async function startStandInRouter(recorder: CallRecorder): Promise<{ server: Server; url: string; seen: IncomingMessage['headers'][] }> {
  const seen: IncomingMessage['headers'][] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (s: string) => (text += s));
    req.on('end', () => {
      seen.push(req.headers);
      const body = JSON.parse(text) as Record<string, unknown>;
      const call = recorder.start({
        projectId: routerProject(req.headers, ALICE),
        principal: ALICE,
        op: 'openai.chat.completions.create',
        inputs: body,
        recordContent: true,
        parent: parseParent(req.headers),
        startedAt: new Date(),
        requestedModel: String(body.model),
        stream: false,
      });
      const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
      const completion = {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'llama-router',
        provider: 'fake',
        choices: [{ index: 0, message: { role: 'assistant', content: 'A trace server.' }, finish_reason: 'stop' }],
        usage,
      };
      call.finish({
        output: completion,
        served: { model: 'llama-router', provider: 'fake', upstream_model: 'llama', pricing },
        priced: { usage, cost_usd: '0.000011' },
        attempts: [{ model: 'llama-router', provider: 'fake', outcome: 'ok', status: 200, latency_ms: 1 }],
        error: undefined,
        endedAt: new Date(),
      });
      res.writeHead(200, { 'content-type': 'application/json', 'x-weft-call-id': call.callId }).end(JSON.stringify(completion));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

describeEachDatabase('wrapOpenAI through a router: the router call is a child of the SDK call', (getServer) => {
  let run: SdkRun;
  let db: Db;
  let router: Awaited<ReturnType<typeof startStandInRouter>>;
  beforeAll(async () => {
    db = await openDatabase(getServer().databaseUrl);
    const recorder = createCallRecorder({
      store: createStore({ db, catalogue: await loadCatalogue() }),
      logger: pino({ level: 'silent' }),
    });
    router = await startStandInRouter(recorder);
    run = await runSdkScript({
      url: getServer().url,
      apiKey: getServer().aliceKey,
      project: PROJECT,
      timeoutMs: 90_000,
      script: 'weave-openai-script.mjs',
      env: { WEFT_E2E_ROUTER_URL: router.url, WEFT_E2E_ROUTER_KEY: getServer().aliceKey },
    });
    // The router's records, written before the calls are read back.
    await recorder.close();
  }, 120_000);
  afterAll(async () => {
    router.server.close();
    await db.close();
  });

  it('links the calls: the SDK op, its openai call, and the router call beneath it, in one trace', async () => {
    const result = run.result as { answer: string; calls: SdkCall[] } | undefined;
    expect(result, `${run.stdout}\n${run.stderr}`).toBeDefined();
    if (!result) return;
    expect(result.answer).toBe('A trace server.');
    const agent = result.calls.find((c) => c.op_name.includes('/op/agent:'));
    const sdkOpenai = result.calls.find((c) => c.op_name.includes('/op/openai.chat.completions.create:'));
    expect(agent).toBeDefined();
    expect(sdkOpenai).toMatchObject({ trace_id: agent?.trace_id, parent_id: agent?.id });

    // What the client sent: the SDK's current call, the wrapped openai one.
    expect(router.seen[0]).toMatchObject({
      'x-weft-trace-id': sdkOpenai?.trace_id,
      'x-weft-parent-call-id': sdkOpenai?.id,
      'openai-project': PROJECT,
    });

    const { calls } = (await getServer()
      .client()
      .POST('/calls/query', { body: { project_id: PROJECT, filter: { trace_ids: [agent?.trace_id ?? ''] } } })) as { calls: RouterCall[] };
    const routerCall = calls.find((c) => c.attributes.weave?.source === 'weft-gateway');
    expect(calls).toHaveLength(3);
    expect(routerCall).toMatchObject({
      op_name: 'openai.chat.completions.create',
      trace_id: sdkOpenai?.trace_id,
      parent_id: sdkOpenai?.id,
      inputs: { model: 'llama-router', messages: [{ role: 'user', content: 'What is Weft?' }] },
      summary: { usage: { 'llama-router': { requests: 1, prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } } },
    });
  });
});
