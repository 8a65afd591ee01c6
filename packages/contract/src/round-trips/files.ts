// Server only: files are stored once per content digest and read back byte for byte.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { SuiteContext } from '../suite-context.ts';

/** Weave's file digest: base64url(sha256), with `-`→`X` and `_`→`Y`. */
const weaveFileDigest = (bytes: Uint8Array) =>
  createHash('sha256').update(bytes).digest('base64url').replaceAll('-', 'X').replaceAll('_', 'Y');

export function defineFileRoundTrip(s: SuiteContext): void {
  describe('files', () => {
    test('create, then read the same bytes by digest', async () => {
      const api = s.client({ scheme: 'basic', key: 'valid' });
      const c = s.context();
      // Not UTF-8, so a server that decodes text on the way would be caught. Prism's proxy itself
      // re-encodes multipart bodies as text, so behind it only text bytes can arrive intact.
      const text = new TextEncoder().encode(c.unique('file'));
      const bytes = s.target.behindPrismProxy ? text : new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, ...text]);

      const { digest } = await api.fileCreate({ project_id: c.projectId, file: bytes });
      expect(digest).toBe(weaveFileDigest(bytes));
      expect((await api.fileCreate({ project_id: c.projectId, file: bytes })).digest).toBe(digest);
      expect(await api.fileContent({ project_id: c.projectId, digest })).toEqual(bytes);
    });
  });
}
