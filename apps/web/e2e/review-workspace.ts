// The annotator's workspace end to end (studio.test.ts runs it with its browser and server): a
// queue of 30 calls with a 1–5 scale and a three-label enum; alice annotates 10 items and skips 2
// with the keyboard only, a reload and a bare link resume at item 13, the API holds the 20 values
// with the queue's id; a second reviewer sees 12 of 30 done, item 13 held by alice, and is given
// item 14; a read-only key looks without taking or writing. A value the server refuses is shown.
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AnnotationQueueItemSchema } from '@weft/types';
import { createApiKeyStore, openDatabase } from '@weft/store';
import { generateApiKey, hashApiKey } from '@weft/server/src/auth/index.ts';
import { apiKeyId } from '@weft/server/src/auth/keys.ts';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';

const P = 'acme/review-desk';
const T0 = Date.parse('2026-11-26T09:00:00.000Z');
const LABELS = ['correct', 'partially correct', 'wrong'];
const callId = (n: number) => `0197331d-0000-7000-8000-${String(n).padStart(12, '0')}`;
const op = (name: string) => `weave:///${P}/op/${name}:Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w`;
/** Every third call is an LLM call with a conversation. */
const isLlm = (n: number) => n % 3 === 0;

async function seedQueue(server: TestServer) {
  const api = server.client('alice');
  const calls = Array.from({ length: 30 }, (_, n) => n);
  await api.POST('/call/upsert_batch', {
    body: {
      batch: calls.flatMap((n) => [
        {
          mode: 'start' as const,
          req: {
            start: {
              project_id: P,
              id: callId(n),
              trace_id: callId(100 + n),
              parent_id: null,
              op_name: op(isLlm(n) ? 'openai.chat.completions.create' : 'answer_question'),
              started_at: new Date(T0 + n * 60_000).toISOString(),
              attributes: {},
              inputs: (isLlm(n)
                ? {
                    model: 'gpt-4o-mini',
                    messages: [
                      { role: 'system', content: 'You answer support questions.' },
                      { role: 'user', content: `Question ${n + 1}: how do I export my data?` },
                    ],
                  }
                : { question: `Question ${n + 1}: where is my invoice?` }) as unknown as Record<string, never>,
            },
          },
        },
        {
          mode: 'end' as const,
          req: {
            end: {
              project_id: P,
              id: callId(n),
              ended_at: new Date(T0 + n * 60_000 + 1_500).toISOString(),
              output: isLlm(n)
                ? { choices: [{ message: { role: 'assistant', content: `Answer ${n + 1}: Settings → Export.` } }] }
                : `Answer ${n + 1}`,
              summary: {},
            },
          },
        },
      ]),
    },
  });
  const spec = async (name: string, field_schema: object) => {
    const { digest } = await api.POST('/obj/create', {
      body: {
        obj: {
          project_id: P,
          object_id: name,
          val: {
            _type: 'AnnotationSpec',
            _class_name: 'AnnotationSpec',
            _bases: ['Object', 'BaseModel'],
            name,
            field_schema,
            unique_among_creators: false,
          },
        },
      },
    });
    return `weave:///${P}/object/${name}:${digest}`;
  };
  const helpfulness = await spec('helpfulness', { type: 'integer', minimum: 1, maximum: 5 });
  const category = await spec('category', { type: 'string', enum: LABELS });
  const { id: queueId } = await api.POST('/annotation_queues', {
    body: { project_id: P, name: 'Support answers', description: 'Weekly review', scorer_refs: [helpfulness, category] },
  });
  // One call at a time, each with the fields its shape has, so the queue's order is the calls'.
  for (const n of calls) {
    await api.POST('/annotation_queues/{queue_id}/items', {
      params: { path: { queue_id: queueId } },
      body: { project_id: P, call_ids: [callId(n)], display_fields: isLlm(n) ? ['inputs.messages'] : ['inputs.question'] },
    });
  }
  // A queue whose free-text spec has a pattern, a keyword the form leaves to the server to check.
  const note = await spec('note', { type: 'string', maxLength: 200, pattern: '^[a-z ]*$' });
  const { id: notesQueueId } = await api.POST('/annotation_queues', { body: { project_id: P, name: 'Notes', scorer_refs: [note] } });
  await api.POST('/annotation_queues/{queue_id}/items', {
    params: { path: { queue_id: notesQueueId } },
    body: { project_id: P, call_ids: [callId(29)] },
  });
  return { api, queueId, helpfulness, category, notesQueueId };
}

/** The item `position` of `total` is shown, and its form holds the focus (the keyboard acts on it). */
export async function onItem(page: Page, position: number, total = 30) {
  await page.getByRole('heading', { name: `Item ${position} of ${total}` }).waitFor();
  await page.getByRole('form', { name: 'Annotate item' }).waitFor();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), { timeout: 10_000 })
    .toBe('Annotate item');
}

export async function checkReviewWorkspace(browser: Browser, server: TestServer, shots: string): Promise<void> {
  const { api, queueId, helpfulness, category, notesQueueId } = await seedQueue(server);
  const read = async () =>
    (
      await api.POST('/annotation_queues/{queue_id}/items/query', {
        params: { path: { queue_id: queueId } },
        body: { project_id: P, include_position: true },
      })
    ).items;
  const ordered = await read();
  expect(ordered.map((i) => i.position_in_queue)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(ordered.map((i) => i.call_id)).toEqual(Array.from({ length: 30 }, (_, n) => callId(n)));
  const stateOf = async (position: number) => {
    const item = (await read())[position - 1] as AnnotationQueueItemSchema;
    return `${item.annotation_state} ${item.annotator_user_id}`;
  };
  const review = `${server.url}/${P}/queues/${queueId}/review`;

  const page = await signedInPage(browser, server.url, server.aliceKey);
  try {
    await page.goto(review);
    await onItem(page, 1);
    await page.waitForURL(new RegExp(`\\?item=${ordered[0]!.id}$`));
    // Opening an unstarted item takes it.
    await expect.poll(() => stateOf(1), { timeout: 10_000 }).toBe('in_progress alice');
    const callView = page.getByRole('article', { name: 'Call under review' });
    await expect(callView.getByRole('list', { name: 'Conversation' }).first().innerText()).resolves.toMatch(/Question 1: how do I export/);
    const trace = callView.getByRole('link', { name: /Open the trace/ });
    expect(await trace.getAttribute('href')).toBe(`/${P}/r/call/${callId(0)}`);
    expect(await trace.getAttribute('target')).toBe('_blank');
    await page.getByRole('status').filter({ hasText: '0 of 30 done' }).waitFor();

    // ? lists the keys; Escape closes the list.
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.screenshot({ path: `${shots}/review-shortcuts.png`, fullPage: true });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'detached' });
    // j and k browse.
    await page.keyboard.press('j');
    await onItem(page, 2);
    await page.keyboard.press('k');
    await onItem(page, 1);

    // Ten items scored and two skipped, by keyboard alone: a number, Tab, a label, Enter.
    const expected = new Map<string, { helpfulness: number; category: string }>();
    for (let i = 0; i < 10; i++) {
      await onItem(page, i + 1);
      const h = (i % 5) + 1;
      const c = i % 3;
      await page.keyboard.press(String(h));
      await page.keyboard.press('Tab');
      await page.keyboard.press(String(c + 1));
      if (i === 0) {
        const form = page.getByRole('form', { name: 'Annotate item' });
        expect(await form.getByRole('radiogroup', { name: 'helpfulness' }).getByRole('radio', { name: '1' }).isChecked()).toBe(true);
        expect(
          await form.getByRole('radiogroup', { name: 'category' }).getByRole('radio', { name: 'correct', exact: true }).isChecked(),
        ).toBe(true);
        await page.screenshot({ path: `${shots}/review-workspace.png`, fullPage: true });
      }
      expected.set(callId(i), { helpfulness: h, category: LABELS[c]! });
      await page.keyboard.press('Enter');
    }
    for (const position of [11, 12]) {
      await onItem(page, position);
      await page.keyboard.press('s');
    }
    await onItem(page, 13);
    await page.getByRole('status').filter({ hasText: '12 of 30 done' }).waitFor();
    await expect.poll(() => stateOf(13), { timeout: 10_000 }).toBe('in_progress alice');

    // A reload stays on item 13, and the bare link resumes there.
    await page.reload();
    await onItem(page, 13);
    await page.goto(review);
    await page.waitForURL(new RegExp(`\\?item=${ordered[12]!.id}$`));
    await onItem(page, 13);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `${shots}/review-workspace-dark.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });

    // What the server holds: 20 annotations from the queue, the values typed, and the items' states.
    const { result } = await api.POST('/feedback/query', {
      body: {
        project_id: P,
        query: { $expr: { $eq: [{ $getField: 'queue_id' }, { $literal: queueId }] } } as never,
      },
    });
    expect(result).toHaveLength(20);
    for (const row of result) {
      expect(row.queue_id).toBe(queueId);
      expect(row.wb_user_id).toBe('alice');
      const call = row.weave_ref?.split('/').pop() ?? '';
      const want = expected.get(call);
      expect(want, row.weave_ref).toBeDefined();
      if (row.feedback_type === 'wandb.annotation.helpfulness') {
        expect(row.annotation_ref).toBe(helpfulness);
        expect(row.payload).toEqual({ value: want!.helpfulness });
      } else {
        expect(row.feedback_type).toBe('wandb.annotation.category');
        expect(row.annotation_ref).toBe(category);
        expect(row.payload).toEqual({ value: want!.category });
      }
    }
    const states = (await read()).map((i) => `${i.annotation_state} ${i.annotator_user_id}`);
    expect(states.slice(0, 13)).toEqual([
      ...Array<string>(10).fill('completed alice'),
      'skipped alice',
      'skipped alice',
      'in_progress alice',
    ]);

    // An earlier item shows this reviewer's values; skipping what they completed is refused by the
    // server (Weave's transition rule), and the refusal is shown, the values kept.
    await page.goto(`${review}?item=${ordered[1]!.id}`);
    await onItem(page, 2);
    const form = page.getByRole('form', { name: 'Annotate item' });
    await form.getByText('You submitted 2').waitFor();
    expect(await form.getByRole('radiogroup', { name: 'helpfulness' }).getByRole('radio', { name: '2' }).isChecked()).toBe(true);
    await page.keyboard.press('s');
    await form
      .getByRole('alert')
      .filter({ hasText: /Invalid transition from completed to skipped/ })
      .waitFor();
    expect(await form.getByRole('radiogroup', { name: 'helpfulness' }).getByRole('radio', { name: '2' }).isChecked()).toBe(true);
    expect(await stateOf(2)).toBe('completed alice');

    // Letters typed in a text box are text, not shortcuts; a value the server refuses (422: the
    // spec's pattern) is shown with its reason, the box keeps it, and the item stays in progress.
    await page.goto(`${server.url}/${P}/queues/${notesQueueId}/review`);
    await onItem(page, 1, 1);
    const at = page.url();
    await page.keyboard.press('Tab');
    await page.keyboard.type('just skip it!');
    expect(page.url()).toBe(at);
    await page.keyboard.press('Enter');
    const notes = page.getByRole('form', { name: 'Annotate item' });
    await notes
      .getByRole('alert')
      .filter({ hasText: /does not match the annotation spec/ })
      .waitFor();
    expect(await notes.getByLabel('note').inputValue()).toBe('just skip it!');
    await page.screenshot({ path: `${shots}/review-refused.png`, fullPage: true });
    const [notesItem] = (
      await api.POST('/annotation_queues/{queue_id}/items/query', { params: { path: { queue_id: notesQueueId } }, body: { project_id: P } })
    ).items;
    expect(`${notesItem?.annotation_state} ${notesItem?.annotator_user_id}`).toBe('in_progress alice');
  } finally {
    await page.close();
  }

  // A second reviewer of acme.
  const key = generateApiKey();
  const db = await openDatabase(server.databaseUrl, { dataDir: '.' });
  try {
    await createApiKeyStore(db).create({
      id: apiKeyId(key)!,
      key_hash: hashApiKey(key),
      username: 'bob-reviewer',
      entities: ['acme'],
      scope: 'write',
    });
  } finally {
    await db.close();
  }
  const second = await signedInPage(browser, server.url, key);
  try {
    await second.goto(review);
    await second.getByRole('status').filter({ hasText: '12 of 30 done' }).waitFor();
    await second.waitForURL(new RegExp(`\\?item=${ordered[13]!.id}$`));
    await onItem(second, 14);
    await expect.poll(() => stateOf(14), { timeout: 10_000 }).toBe('in_progress bob-reviewer');
    const list = second.getByRole('navigation', { name: 'Items of the queue' });
    await list.getByRole('link', { name: /^Item 13: .*in progress by alice$/ }).waitFor();
    await list.getByRole('link', { name: /^Item 14: .*in progress by bob-reviewer$/ }).waitFor();
    await second.screenshot({ path: `${shots}/review-second-reviewer.png`, fullPage: true });
    // Item 13 is alice's: shown as hers, and not taken.
    await second.keyboard.press('k');
    await onItem(second, 13);
    await second.getByText('In progress by alice').waitFor();
    expect(await stateOf(13)).toBe('in_progress alice');
  } finally {
    await second.close();
  }

  // A read-only key sees the queue and the next open item (15), but neither takes it nor writes.
  const viewer = await signedInPage(browser, server.url, await keyOf(server, 'acme-reader', 'read'));
  try {
    await viewer.goto(review);
    await viewer.waitForURL(new RegExp(`\\?item=${ordered[14]!.id}$`));
    await onItem(viewer, 15);
    const form = viewer.getByRole('form', { name: 'Annotate item' });
    await form.getByText('This API key is read-only here').waitFor();
    for (const name of ['Submit', 'Skip']) {
      expect(await form.getByRole('button', { name }).isDisabled()).toBe(true);
      expect(await form.getByRole('button', { name }).getAttribute('title')).toMatch(/read-only/);
    }
    await viewer.waitForLoadState('networkidle');
    expect(await stateOf(15)).toBe('unstarted ');
    expect(await viewer.getByRole('alert').count()).toBe(0);
  } finally {
    await viewer.close();
  }
}

async function keyOf(server: TestServer, username: string, scope: 'read' | 'write'): Promise<string> {
  const key = generateApiKey();
  const db = await openDatabase(server.databaseUrl, { dataDir: '.' });
  try {
    await createApiKeyStore(db).create({ id: apiKeyId(key)!, key_hash: hashApiKey(key), username, entities: ['acme'], scope });
  } finally {
    await db.close();
  }
  return key;
}
