// Server only: health, and the router list's ETag revalidation.
import { describe, expect, test } from 'vitest';
import type { SuiteContext } from '../suite-context.ts';

export function defineServiceRoundTrip(s: SuiteContext): void {
  describe('service', () => {
    test('health says ok', async () => {
      expect(await s.client('none').GET('/health')).toMatchObject({ status: 'ok' });
    });

    test('the router list answers 304 to its own ETag', async () => {
      const { raw } = s.client('none');
      const first = await raw.GET('/inference/router/gateway/models');
      expect(first.response.status).toBe(200);
      const etag = first.response.headers.get('ETag');
      expect(etag, 'ETag header').toBeTruthy();
      expect(first.response.headers.get('Cache-Control'), 'Cache-Control header').toBeTruthy();
      const again = await raw.GET('/inference/router/gateway/models', { params: { header: { 'If-None-Match': etag! } } });
      expect(again.response.status).toBe(304);
      expect(again.response.headers.get('ETag')).toBe(etag);
    });
  });
}
