// The call view end to end (studio.test.ts runs it with its browser and server): a trace of its
// own project with priced usage on two models, a failed tool call and an evaluation op. The
// totals above the tree, each row's kind icon and link, and a call's usage as a table per model.
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';

const PROJECT = 'acme/call-view';
const T0 = Date.parse('2026-11-25T09:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const id = (n: number) => `0197331c-0000-7000-8000-${String(500 + n).padStart(12, '0')}`;

interface Step {
  n: number;
  op: string;
  parent?: number;
  start: number;
  end: number;
  attributes?: object;
  usage?: object;
  exception?: string;
}

// Prices per token: 1,000 × 0.00001 + 200 × 0.00005 = $0.02 on acme-large; 300 × 0.0001 +
// 50 × 0.0002 = $0.04 on acme-small; the trace's $0.06.
const STEPS: Step[] = [
  { n: 1, op: 'run_agent', start: 0, end: 3000 },
  { n: 2, op: 'retrieve_docs', parent: 1, start: 100, end: 400 },
  {
    n: 3,
    op: 'openai.chat.completions.create',
    parent: 1,
    start: 500,
    end: 1500,
    usage: { 'acme-large': { requests: 1, prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200 } },
  },
  {
    n: 4,
    op: 'summarise',
    parent: 1,
    start: 1550,
    end: 1590,
    attributes: { weave: { kind: 'llm' } },
    usage: { 'acme-small': { input_tokens: 300, output_tokens: 50 } },
  },
  {
    n: 5,
    op: 'calculate',
    parent: 1,
    start: 1600,
    end: 1700,
    attributes: { weave: { kind: 'tool' } },
    exception: 'ZeroDivisionError: division by zero',
  },
  { n: 6, op: 'ExactMatch.score', parent: 1, start: 1800, end: 1900 },
];

async function seedTrace(server: TestServer): Promise<void> {
  const api = server.client('alice');
  await api.POST('/cost/create', {
    body: {
      project_id: PROJECT,
      costs: {
        'acme-large': { prompt_token_cost: 0.00001, completion_token_cost: 0.00005, effective_date: '2000-01-01T00:00:00Z' },
        'acme-small': { prompt_token_cost: 0.0001, completion_token_cost: 0.0002, effective_date: '2000-01-01T00:00:00Z' },
      },
    } as never,
  });
  const op = (name: string) => `weave:///${PROJECT}/op/${name}:Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w`;
  await api.POST('/call/upsert_batch', {
    body: {
      batch: STEPS.flatMap((s) => [
        {
          mode: 'start' as const,
          req: {
            start: {
              project_id: PROJECT,
              id: id(s.n),
              trace_id: id(100),
              parent_id: s.parent === undefined ? null : id(s.parent),
              op_name: op(s.op),
              started_at: iso(s.start),
              attributes: (s.attributes ?? {}) as Record<string, never>,
              inputs: {},
            },
          },
        },
        {
          mode: 'end' as const,
          req: {
            end: {
              project_id: PROJECT,
              id: id(s.n),
              ended_at: iso(s.end),
              output: null,
              exception: s.exception ?? null,
              summary: (s.usage ? { usage: s.usage } : {}) as Record<string, never>,
            },
          },
        },
      ]),
    },
  });
}

export async function checkCallView(browser: Browser, server: TestServer, shots: string): Promise<void> {
  await seedTrace(server);
  const page = await signedInPage(browser, server.url, server.aliceKey, 1400);
  try {
    await page.goto(`${server.url}/${PROJECT}/r/call/${id(1)}`);
    const tree = page.getByRole('tree', { name: 'Calls of the trace' });
    await expect.poll(() => tree.getByRole('treeitem').count(), { timeout: 10_000 }).toBe(STEPS.length);

    // The whole trace's totals, above the tree.
    const totals = page.getByRole('region', { name: 'Trace totals' });
    expect(await totals.getByTestId('trace-calls').innerText()).toBe('6');
    expect(await totals.getByTestId('trace-tokens').innerText()).toBe('1,550');
    expect(await totals.getByTestId('trace-cost').innerText()).toBe('$0.06');
    expect(await totals.getByTestId('trace-latency').innerText()).toBe('3.00 s');
    expect(await totals.getByTestId('trace-errors').innerText()).toBe('1');

    // Each row's kind, named for screen readers, in tree order.
    const kinds = await tree
      .getByRole('treeitem')
      .evaluateAll((items) => items.map((li) => li.querySelector('svg[role="img"]')?.getAttribute('aria-label')));
    expect(kinds).toEqual(['Agent', 'Retriever', 'LLM call', 'LLM call', 'Tool', 'Evaluation']);
    expect(await tree.getByRole('img', { name: 'LLM call' }).count()).toBe(2);

    // Every row is a link to its call: it can be copied or opened in another tab.
    const toolLink = tree.getByRole('link', { name: 'calculate', exact: true });
    expect(await toolLink.getAttribute('href')).toBe(`/${PROJECT}/r/call/${id(5)}`);
    const [opened] = await Promise.all([page.context().waitForEvent('page'), toolLink.click({ modifiers: ['Control'] })]);
    await opened.waitForURL(new RegExp(`/r/call/${id(5)}$`));
    await opened.close();
    expect(page.url()).toMatch(new RegExp(`/r/call/${id(1)}$`));

    // A plain click selects the call here; its usage is a table per model with tokens and cost.
    await tree.getByRole('link', { name: 'openai.chat.completions.create' }).click();
    await page.waitForURL(new RegExp(`/r/call/${id(3)}$`));
    const usage = page.getByRole('table', { name: 'Usage and cost by model' });
    const large = usage.getByRole('row').filter({ hasText: 'acme-large' });
    await large.waitFor();
    expect((await large.innerText()).split('\t')).toEqual(['acme-large', '1', '1,000', '200', '1,200', '$0.02']);
    // The summary's other fields as a table, the usage not repeated there.
    const summary = page.getByRole('table', { name: 'Summary' });
    await expect(summary.innerText()).resolves.not.toMatch(/usage|costs/);
    await page.screenshot({ path: `${shots}/call-view.png`, fullPage: true });

    // The keyboard still moves through the tree, from the call the click selected.
    await tree.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(new RegExp(`/r/call/${id(4)}$`));
    await page.getByRole('table', { name: 'Usage and cost by model' }).getByRole('row').filter({ hasText: 'acme-small' }).waitFor();
    expect((await usage.getByRole('row').filter({ hasText: 'acme-small' }).innerText()).split('\t')).toEqual([
      'acme-small',
      '1',
      '300',
      '50',
      '350',
      '$0.04',
    ]);
    await page.keyboard.press('ArrowUp');
    await page.waitForURL(new RegExp(`/r/call/${id(3)}$`));
  } finally {
    await page.close();
  }
}
