// LLM-as-judge in Studio against the real router (a fake upstream behind it, the one thing faked):
// select traces, judge them with a project's LLMAsAJudgeScorer, and follow the judgements on the
// Judges page, where a monitor shows what it judged and what that cost.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '@weft/router';
import { completion, startFakeUpstream, testRouterConfig, usageOf, type FakeUpstream } from '@weft/router/testing';
import { startTestServer, type TestServer } from '@weft/server/test/test-server.ts';
import { browserAvailable, launchChromium, signedInPage } from './browser.ts';

const WEB_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const P = 'acme/judged-web';

const judgeVal = {
  _type: 'LLMAsAJudgeScorer',
  _class_name: 'LLMAsAJudgeScorer',
  _bases: ['Scorer', 'Object', 'BaseModel'],
  model: { llm_model_id: 'judge', default_params: { response_format: 'json' } },
  scoring_prompt: 'Question: {question}\nAnswer: {output}',
};

describe.skipIf(!browserAvailable)('LLM-as-judge in Studio', () => {
  let upstream: FakeUpstream;
  let router: Router;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    // 100 prompt and 10 completion tokens: 0.00012 USD a judgement.
    upstream.setDefault({ kind: 'json', body: completion('{"score": 5}', { usage: usageOf(100, 10) }) });
    const config = testRouterConfig({
      providers: [{ id: 'fake', base_url: upstream.base_url }],
      models: [
        { id: 'judge', endpoints: [{ provider: 'fake', model: 'grader', pricing: { prompt: '0.000001', completion: '0.000002' } }] },
      ],
    });
    router = createRouter({ config, env: {} });
    server = await startTestServer('sqlite', { WEB_DIR, JUDGE_POLL_INTERVAL: '100ms', MONITOR_SCAN_INTERVAL: '200ms' }, undefined, {
      router: () => router,
    });
    const api = server.client();
    const { digest } = await api.POST('/obj/create', {
      body: { obj: { project_id: P, object_id: 'helpfulness', val: judgeVal as never } },
    });
    await api.POST('/obj/create', {
      body: {
        obj: {
          project_id: P,
          object_id: 'every-answer',
          val: {
            _type: 'Monitor',
            _class_name: 'Monitor',
            _bases: ['Object', 'BaseModel'],
            sampling_rate: 1,
            scorers: [`weave:///${P}/object/helpfulness:${digest}`],
            call_filter: { op_names: ['answer'], query: null },
            active: true,
          } as never,
        },
      },
    });
    const at = new Date().toISOString();
    const batch = ['a', 'b', 'c'].flatMap((q, i) => {
      const id = `0197b000-0000-7000-8000-00000000000${i}`;
      return [
        {
          mode: 'start' as const,
          req: {
            start: { project_id: P, id, trace_id: id, op_name: 'answer', started_at: at, attributes: {}, inputs: { question: q } as never },
          },
        },
        { mode: 'end' as const, req: { end: { project_id: P, id, ended_at: at, output: `answer ${q}` as never, summary: {} as never } } },
      ];
    });
    await api.POST('/call/upsert_batch', { body: { batch } });
    browser = await launchChromium();
    page = await signedInPage(browser, `${server.url}/${P}/traces`, server.aliceKey);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await router?.close();
    await upstream?.close();
  });

  it('judges the selected traces and shows the monitor and the requests with their counts and cost', async () => {
    // Only the calls of `answer`: the judges' own router calls are traces of the project too.
    await page.goto(`${server.url}/${P}/traces?op=answer`);
    await page.getByRole('table', { name: 'Traces' }).locator('tbody tr').nth(2).waitFor();
    await page.getByLabel('Select every trace on this page').check();
    await page.getByRole('button', { name: 'Judge…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Judge with an LLM' });
    await dialog.getByLabel('Scorer').selectOption('helpfulness');
    await dialog.getByRole('button', { name: 'Judge 3 calls' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Queued 3 judgements' }).waitFor();
    await dialog.getByRole('link', { name: 'Judges' }).click();
    await page.waitForURL(new RegExp(`/${P}/judges$`));

    // The monitor judged the three calls on its own; the request three more. Each cost 0.00012.
    const monitor = page.getByRole('table', { name: 'Monitors' }).locator('tr[data-monitor="every-answer"]');
    await expect
      .poll(
        async () => {
          await page.reload();
          await monitor.waitFor();
          return monitor.locator('td[data-col="done"]').innerText();
        },
        { timeout: 20_000 },
      )
      .toBe('3');
    expect(await monitor.locator('td[data-col="cost"]').innerText()).toBe('$0.00036');
    expect(await monitor.innerText()).toContain('active');
    const requested = page.getByRole('table', { name: 'Judged on request' }).getByRole('row', { name: /helpfulness/ });
    await expect.poll(async () => (await requested.innerText()).split('\t').slice(0, 2), { timeout: 20_000 }).toEqual(['helpfulness', '3']);
  });
});
