// Server only: tables keep their rows, in order, addressed by content digests.
import { describe, expect, test } from 'vitest';
import { anyObject } from '../cases/case-types.ts';
import type { SuiteContext } from '../suite-context.ts';

export function defineTableRoundTrip(s: SuiteContext): void {
  describe('tables', () => {
    test('create, query in order, sort, filter, page', async () => {
      const api = s.client({ scheme: 'basic', key: 'valid' });
      const c = s.context();
      const project_id = c.projectId;
      const rows = [
        { question: `${c.unique('q')} reset password`, expected: { difficulty: 2 } },
        { question: 'Refund after 30 days?', expected: { difficulty: 1 } },
      ];
      const create = () => api.POST('/table/create', { body: { table: { project_id, rows: rows.map(anyObject) } } });

      const table = await create();
      expect(table.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(table.row_digests).toHaveLength(2);
      expect((await create()).digest).toBe(table.digest); // same rows, same table

      const query = (extra: object = {}) => api.POST('/table/query', { body: { project_id, digest: table.digest, ...extra } });
      expect((await query()).rows).toEqual([
        { digest: table.row_digests[0], val: rows[0], original_index: 0 },
        { digest: table.row_digests[1], val: rows[1], original_index: 1 },
      ]);
      const sorted = await query({ sort_by: [{ field: 'expected.difficulty', order: 'asc' }] });
      expect(sorted.rows.map((r) => r.original_index)).toEqual([1, 0]);
      const filtered = await query({ filter: { row_digests: [table.row_digests[1]] } });
      expect(filtered.rows.map((r) => r.digest)).toEqual([table.row_digests[1]]);
      const page = await query({ limit: 1, offset: 1 });
      expect(page.rows.map((r) => r.original_index)).toEqual([1]);

      const unknown = await api.POST('/table/query', { body: { project_id, digest: 'f'.repeat(64) } });
      expect(unknown.rows).toEqual([]);
    });
  });
}
