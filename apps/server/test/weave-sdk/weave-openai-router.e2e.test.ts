// The Weave TypeScript SDK's wrapOpenAI, tracing to Weft, around an `openai` client whose baseURL
// is Weft's router (serving a fake upstream): the router's call lands in the SDK's trace as a child
// of the SDK's own `openai.chat.completions.create` call (weave-openai-script.mjs passes it in
// X-Weft-Trace-Id / X-Weft-Parent-Call-Id), on both databases.
import { completion, usageOf } from '@weft/router/testing';
import { describeIfPostgres } from '@weft/store/testing';
import type * as T from '@weft/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../faults/kit/wait-for.ts';
import { startRouterKit, type RouterKit } from '../router/router-kit.ts';
import type { TestDatabase } from '../test-server.ts';
import { runSdkScript, type SdkRun } from './run-sdk-script.ts';

const PROJECT = 'acme/weave-openai-e2e';

interface SdkCall {
  id: string;
  op_name: string;
  trace_id: string;
  parent_id: string | null;
}

function suite(database: TestDatabase) {
  return () => {
    let kit: RouterKit;
    let run: SdkRun;
    beforeAll(async () => {
      // Generous timeouts: the SDK's child process shares a busy machine with the fake upstream.
      kit = await startRouterKit({ database, timeouts: { first_byte_ms: 15_000, idle_ms: 15_000 } });
      kit.a.script({ kind: 'json', body: completion('A trace server.', { usage: usageOf(5, 3) }) });
      run = await runSdkScript({
        url: kit.server.url,
        apiKey: kit.server.aliceKey,
        project: PROJECT,
        timeoutMs: 90_000,
        script: 'weave-openai-script.mjs',
        env: { WEFT_E2E_ROUTER_URL: kit.gateway, WEFT_E2E_ROUTER_KEY: kit.server.aliceKey, WEFT_E2E_MODEL: 'chat' },
      });
    }, 120_000);
    afterAll(async () => kit?.close());

    it('links the calls: the SDK op, its openai call, and the router call beneath it, in one trace', async () => {
      const result = run.result as { answer: string; calls: SdkCall[] } | undefined;
      expect(result, `${run.stdout}\n${run.stderr}`).toBeDefined();
      if (!result) return;
      expect(result.answer).toBe('A trace server.');
      const agent = result.calls.find((c) => c.op_name.includes('/op/agent:'));
      const sdkOpenai = result.calls.find((c) => c.op_name.includes('/op/openai.chat.completions.create:'));
      expect(agent).toBeDefined();
      expect(sdkOpenai).toMatchObject({ trace_id: agent?.trace_id, parent_id: agent?.id });

      // The router's record is written after its answer: wait for the trace's third call.
      const calls = await waitFor(
        async () => {
          const res = await kit.server
            .client()
            .POST('/calls/query', { body: { project_id: PROJECT, filter: { trace_ids: [agent?.trace_id ?? ''] } } });
          const found = res.calls as T.CallSchema[];
          return found.length === 3 && found.every((c) => c.ended_at) ? found : undefined;
        },
        { timeoutMs: 10_000, what: "the router's call in the SDK's trace" },
      );
      const routerCall = calls.find((c) => c.op_name === 'openai.chat.completions.create');
      expect(routerCall).toMatchObject({
        trace_id: sdkOpenai?.trace_id,
        parent_id: sdkOpenai?.id,
        attributes: { weave: { source: 'weft-gateway' }, gateway: { provider: 'a', served_model: 'chat' } },
        inputs: { model: 'chat', messages: [{ role: 'user', content: 'What is Weft?' }] },
        summary: { usage: { chat: { requests: 1, prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } } },
      });
    });
  };
}

describe('wrapOpenAI through Weft’s router [sqlite]', suite('sqlite'));
describeIfPostgres('wrapOpenAI through Weft’s router [postgres]', () => suite('postgres')());
