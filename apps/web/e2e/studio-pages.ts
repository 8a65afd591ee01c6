// Every Studio page, each opened on data that fills it: the seeded project (e2e/seed.ts), `weft
// demo`'s project (threads, runs, a dataset) and the weave SDK's evaluations (e2e/evaluations.ts).
// The accessibility pass visits them all; a page added to app.tsx belongs here.
import type { Page } from 'playwright-core';
import type { PageVisit } from './accessibility.ts';
import type { Seeded } from './seed.ts';

export function studioPages(origin: string, data: Seeded): PageVisit[] {
  const P = data.projectId;
  const at = (name: string, path: string, ready: (page: Page) => Promise<unknown>): PageVisit => ({
    name,
    open: async (page) => {
      await page.goto(`${origin}${path}`);
      await ready(page);
    },
  });
  const table = (name: string) => (page: Page) => page.getByRole('table', { name }).getByRole('row').nth(1).waitFor();
  return [
    at('projects', '/', (page) =>
      page
        .getByRole('link', { name: /support-bot/ })
        .first()
        .waitFor(),
    ),
    at('overview', '/acme/demo/overview', (page) => page.getByRole('img', { name: 'Feedback scores (mean) by time' }).waitFor()),
    at('traces', `/${P}/traces`, table('Traces')),
    at('trace', `/${P}/r/call/${data.failedLlm}`, (page) => page.getByRole('article', { name: 'Call details' }).waitFor()),
    at('threads', '/acme/demo/threads', table('Threads')),
    at('thread', '/acme/demo/threads/support-chat-1', (page) =>
      page.getByRole('list', { name: 'Turns' }).getByRole('listitem').first().waitFor(),
    ),
    at('evaluations', '/acme/weave-eval-web/evaluations', table('Evaluations')),
    {
      name: 'evaluation comparison',
      open: async (page) => {
        await page.goto(`${origin}/acme/weave-eval-web/evaluations`);
        const rows = page.getByRole('table', { name: 'Evaluations' }).locator('tbody tr');
        await rows.nth(1).waitFor();
        await rows.nth(0).getByRole('checkbox').check();
        await rows.nth(1).getByRole('checkbox').check();
        await page.getByRole('button', { name: 'Compare (2)' }).click();
        await page.getByRole('table', { name: 'Examples' }).locator('tbody tr').first().waitFor();
      },
    },
    at('objects', `/${P}/objects`, table('Objects')),
    at('object', '/acme/demo/objects/support-questions', (page) => page.getByRole('link', { name: /Open the rows of table/ }).waitFor()),
    // Saved by the op source test (e2e/op-source.ts).
    at('op source', `/${P}/objects/classify`, (page) => page.getByLabel('Source of obj.py').waitFor()),
    at('dataset rows', `/${P}/tables/${data.tableDigest}`, table('Rows')),
    at('queues', '/acme/demo/queues', (page) => page.getByRole('link', { name: 'Answer review' }).waitFor()),
    at('queue', `/${P}/queues/${data.queueId}`, (page) => page.getByRole('button', { name: 'Save' }).waitFor()),
    at('queue review', `/${P}/queues/${data.queueId}/review`, (page) => page.getByRole('heading').first().waitFor()),
    at('judges', `/${P}/judges`, (page) => page.getByRole('heading', { name: 'Monitors' }).waitFor()),
    at('RL runs', '/acme/demo/runs', (page) => page.getByRole('link', { name: 'support-agent' }).waitFor()),
    {
      name: 'RL run',
      open: async (page) => {
        await page.goto(`${origin}/acme/demo/runs`);
        await page.getByRole('link', { name: 'support-agent' }).click();
        await page.getByRole('img', { name: 'reward by step' }).waitFor();
      },
    },
    at('playground', `/playground?project=${P}&call=${data.okLlm}`, (page) => page.getByRole('button', { name: 'Run' }).waitFor()),
    at('router models', '/router-models', (page) => page.getByRole('table').first().getByRole('row').nth(1).waitFor()),
    at('not found', '/no/such/page/here', (page) => page.getByRole('heading').first().waitFor()),
  ];
}
