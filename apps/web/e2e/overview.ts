// The project overview end to end (studio.test.ts runs it with its server and seed): the charts
// show what calls/stats and feedback/stats answer to the very requests the page made, another
// range is another request, an empty range says so, and the lines read on a dark background.
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { CallStatsReq, FeedbackStatsReq } from '@weft/types';
import type { TestServer } from '@weft/server/test/test-server.ts';
import type { Seeded } from './seed.ts';

export async function checkOverview(browser: Browser, server: TestServer, data: Seeded, shots: string): Promise<void> {
  const api = server.client('alice');
  const { call: root } = await api.POST('/call/read', { body: { project_id: data.projectId, id: data.okRoot } });
  const seededAt = Date.parse(root.started_at);
  // A page of its own, whose clock (Date only; timers run) stands two hours after the seed's
  // fixed-time calls: the last 24 hours hold them all, the last hour none.
  const ov = await browser.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC', locale: 'en-US' });
  ov.on('pageerror', (err) => {
    throw err;
  });
  const statsAsked = () => ov.waitForRequest((r) => r.url().endsWith('/calls/stats'));
  const sumOf = (chart: string, series: string) =>
    ov
      .getByRole('img', { name: `${chart} by time` })
      .locator(`[data-series="${series}"] circle`)
      .evaluateAll((els) => els.reduce((s, e) => s + Number(e.getAttribute('data-value')), 0));
  try {
    await ov.clock.setFixedTime(seededAt + 2 * 3_600_000);
    await ov.goto(`${server.url}/`);
    await ov.getByLabel('API key').fill(server.aliceKey);
    await ov.getByRole('button', { name: 'Sign in' }).click();
    await ov.getByRole('link', { name: /support-bot/ }).click();
    const asked = statsAsked();
    await ov.getByRole('link', { name: 'Overview' }).click();
    await ov.waitForURL(/\/acme\/support-bot\/overview$/);
    // What the charts must show: the server's answer to the very request the page made.
    const body = (await asked).postDataJSON() as CallStatsReq;
    expect(body.granularity).toBe(1_800); // the last 24 h by default
    const expected = await api.POST('/calls/stats', { body });
    const calls = expected.call_buckets.reduce((s, b) => s + (b.sum_call_count ?? 0), 0);
    const errors = expected.call_buckets.reduce((s, b) => s + (b.sum_error_count ?? 0), 0);
    const usage = expected.usage_buckets.filter((b) => b.model === 'gpt-4o-mini');
    const input = usage.reduce((s, b) => s + (b.sum_input_tokens ?? 0), 0);
    const output = usage.reduce((s, b) => s + (b.sum_output_tokens ?? 0), 0);
    expect(calls).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(0);
    expect(input + output).toBeGreaterThan(0);

    await ov.getByRole('img', { name: 'Calls and errors by time' }).waitFor();
    expect(await ov.getByTestId('total-calls').innerText()).toBe(calls.toLocaleString('en-US'));
    expect(await ov.getByTestId('total-errors').innerText()).toMatch(new RegExp(`^${errors.toLocaleString('en-US')} \\(`));
    expect(await sumOf('Calls and errors', 'calls')).toBe(calls);
    expect(await sumOf('Calls and errors', 'errors')).toBe(errors);
    expect(await sumOf('Tokens by model', 'gpt-4o-mini')).toBe(input + output);
    await ov.getByRole('img', { name: 'Latency (ms) by time' }).waitFor();
    const row = ov.getByRole('table', { name: 'Tokens and cost by model' }).getByRole('row', { name: /gpt-4o-mini/ });
    expect((await row.innerText()).split('\t').slice(1, 4)).toEqual([input, output, input + output].map((n) => n.toLocaleString('en-US')));
    await ov.getByText('No numeric feedback in this range.').waitFor();
    await ov.screenshot({ path: `${shots}/overview.png`, fullPage: true });

    // Dark scheme: the lines keep a contrast of at least 3:1 (WCAG's for graphics) with the page.
    await ov.emulateMedia({ colorScheme: 'dark' });
    const contrast = await ov.evaluate(() => {
      const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) =>
        rgb(c)
          .map((v) => v / 255)
          .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
          .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i]!, 0);
      const bg = lum(getComputedStyle(document.documentElement).backgroundColor);
      return [...document.querySelectorAll('.chart polyline')].map((l) => {
        const fg = lum(getComputedStyle(l).stroke);
        return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      });
    });
    expect(contrast.length).toBeGreaterThan(0);
    expect(Math.min(...contrast)).toBeGreaterThanOrEqual(3);
    await ov.screenshot({ path: `${shots}/overview-dark.png`, fullPage: true });
    await ov.emulateMedia({ colorScheme: 'light' });

    // Another range is another request, and the last hour has no calls.
    const again = statsAsked();
    await ov.getByRole('button', { name: 'Last 1 h' }).click();
    const hourBody = (await again).postDataJSON() as typeof body;
    expect(hourBody.granularity).toBe(60);
    expect(Date.parse(hourBody.end ?? '') - Date.parse(hourBody.start)).toBe(3_600_000);
    expect((await api.POST('/calls/stats', { body: hourBody })).call_buckets.every((b) => b.sum_call_count === 0)).toBe(true);
    await ov.getByText('No calls in this range.').waitFor();
    await ov.waitForURL(/range=1h/);
    expect(await ov.getByTestId('total-calls').innerText()).toBe('0');
    await ov.screenshot({ path: `${shots}/overview-empty.png`, fullPage: true });

    // Feedback is stamped with the server's clock: a score written now shows once the page's clock is now.
    await api.POST('/feedback/create', {
      body: {
        project_id: data.projectId,
        weave_ref: `weave:///${data.projectId}/call/${data.okRoot}`,
        feedback_type: 'quality',
        payload: { output: { score: 0.75 } },
      },
    });
    await ov.clock.setFixedTime(Date.now() + 1_000);
    const feedbackAsked = ov.waitForRequest((r) => r.url().endsWith('/feedback/stats'));
    await ov.getByRole('button', { name: 'Refresh' }).click();
    const feedbackBody = (await feedbackAsked).postDataJSON() as FeedbackStatsReq;
    const feedback = await api.POST('/feedback/stats', { body: feedbackBody });
    const means = feedback.buckets.filter((b) => (b.count_output_score ?? 0) > 0).map((b) => b.avg_output_score);
    expect(means).toEqual([0.75]);
    const scores = ov.getByRole('img', { name: 'Feedback scores (mean) by time' });
    await scores.waitFor();
    await expect
      .poll(() =>
        scores.locator('[data-series="output.score"] circle').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value')))),
      )
      .toEqual(means);
  } finally {
    await ov.close();
  }
}
