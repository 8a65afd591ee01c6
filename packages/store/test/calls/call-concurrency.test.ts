// Two replicas writing the two halves of the same calls at the same moment, each through its own
// PostgreSQL pool: every call must end as one merged row (no lost half, no duplicate-key error).
import { expect, it } from 'vitest';
import { describeTwoReplicas } from '../dialects.ts';
import { callsOf, ctx, endReq, startReq } from './call-fixtures.ts';

describeTwoReplicas('call/start and call/end from two replicas [postgres]', (replicas) => {
  it('merges concurrent starts and ends of the same calls', async () => {
    const a = callsOf(replicas()[0]);
    const b = callsOf(replicas()[1]);
    const p = 'cc/merge';
    const ids = Array.from({ length: 100 }, (_, i) => `c${i}`);
    // Alternate which replica sends which half, all in flight together.
    await Promise.all(
      ids.flatMap((id, i) => {
        const [s, e] = i % 2 === 0 ? [a, b] : [b, a];
        return [s.callStart(startReq(p, { id, inputs: { i } }), ctx), e.callEnd(endReq(p, id, { output: i }), ctx)];
      }),
    );
    for (const [i, id] of ids.entries()) {
      const { call } = await a.callRead({ project_id: p, id }, ctx);
      expect(call).toMatchObject({ inputs: { i }, output: i, summary: { weave: { status: 'success' } } });
    }
  });
});
