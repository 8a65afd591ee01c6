// Weave's project TTL settings (read/update) and the expiry they give calls: expire_at =
// started_at + retention_days, stamped when the start is written, so a change applies to calls
// written after it and stored calls keep theirs.
import { ExportTraceServiceRequest, otlpProjects, WeftError } from '@weft/core';
import { fixtureSpan } from '@weft/core/testing';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { isoPlusDays, type Db } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, endReq, startReq, T0, T1 } from '../calls/call-fixtures.ts';

const DAY = 86_400_000;
const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

async function expireAt(db: Db, projectId: string, id: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('calls')
    .select('expire_at')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.expire_at;
}

describeEachDialect('project TTL settings', (getDb) => {
  it('reads null until set, then what was set; null or a missing retention_days clears it', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/round-trip';
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: null });
    expect(await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 30 }, ctx)).toEqual({ retention_days: 30 });
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: 30 });
    // Weave's wb_user_id is ignored: the authenticated user is recorded.
    const row = await db.kysely.selectFrom('project_ttl_settings').selectAll().where('project_id', '=', p).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ retention_days: 30, updated_by: 'alice' });
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 7, wb_user_id: 'mallory' }, { user: 'bob' });
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: 7 });
    expect(await db.kysely.selectFrom('project_ttl_settings').select('updated_by').where('project_id', '=', p).executeTakeFirst()).toEqual({
      updated_by: 'bob',
    });
    expect(await store.projectTtlSettingsUpdate({ project_id: p, retention_days: null }, ctx)).toEqual({ retention_days: null });
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: null });
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 3 }, ctx);
    // Weave's default for a missing retention_days is None: no retention.
    expect(await store.projectTtlSettingsUpdate({ project_id: p }, ctx)).toEqual({ retention_days: null });
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: null });
    // Another project is untouched.
    expect(await store.projectTtlSettingsRead({ project_id: 'ttl/other' }, ctx)).toEqual({ retention_days: null });
  });

  it('refuses a retention below 1 day, above 100 years or not whole, and keeps the setting', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'ttl/refused';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 5 }, ctx);
    for (const bad of [0, -1, 1.5, 36_501]) {
      const err = await store.projectTtlSettingsUpdate({ project_id: p, retention_days: bad }, ctx).catch((e: unknown) => e);
      expect(err, String(bad)).toBeInstanceOf(WeftError);
      expect(err).toMatchObject({ status: 400, errorType: 'InvalidRequest' });
    }
    expect(await store.projectTtlSettingsRead({ project_id: p }, ctx)).toEqual({ retention_days: 5 });
    expect(await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 36_500 }, ctx)).toEqual({ retention_days: 36_500 });
  });

  it('stamps a started call with started_at + retention, and no expiry without one', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/stamp';
    const kept = await store.callStart(startReq(p), ctx);
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 30 }, ctx);
    const expiring = await store.callStart(startReq(p), ctx);
    expect(await expireAt(db, p, kept.id)).toBeNull();
    expect(await expireAt(db, p, expiring.id)).toBe(plusDays(T0, 30));
    // call/read shows it (the call schema's expire_at), and an end leaves it.
    await store.callEnd(endReq(p, expiring.id), ctx);
    const { call } = await store.callRead({ project_id: p, id: expiring.id }, ctx);
    expect(call.expire_at).toBe(plusDays(T0, 30));
    expect(await store.callRead({ project_id: p, id: kept.id }, ctx)).not.toHaveProperty('call.expire_at');
    // A retention of another project does not leak.
    const other = await store.callStart(startReq('ttl/stamp-other'), ctx);
    expect(await expireAt(db, 'ttl/stamp-other', other.id)).toBeNull();
  });

  it('a change applies to calls written after it: stored calls keep their expiry', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/change';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const first = await store.callStart(startReq(p), ctx);
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 90 }, ctx);
    const second = await store.callStart(startReq(p), ctx);
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: null }, ctx);
    const third = await store.callStart(startReq(p), ctx);
    expect(await expireAt(db, p, first.id)).toBe(plusDays(T0, 1));
    expect(await expireAt(db, p, second.id)).toBe(plusDays(T0, 90));
    expect(await expireAt(db, p, third.id)).toBeNull();
    // A start sent again is written again: it takes the retention in force now (none).
    await store.callStart(startReq(p, { id: first.id, trace_id: first.trace_id }), ctx);
    expect(await expireAt(db, p, first.id)).toBeNull();
  });

  it('stamps a call started before year 1 (PostgreSQL has no year 0) from 0001-01-01', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/year-zero';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const { id } = await store.callStart(startReq(p, { started_at: '0000-03-01T00:00:00.000Z' }), ctx);
    expect(await expireAt(db, p, id)).toBe('0001-01-02T00:00:00.000Z');
  });

  it('an end that arrives first expires from ended_at until its start stamps the call', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/end-first';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 2 }, ctx);
    const id = '0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1';
    await store.callEnd(endReq(p, id), ctx);
    expect(await expireAt(db, p, id)).toBe(plusDays(T1, 2));
    await store.callStart(startReq(p, { id }), ctx);
    expect(await expireAt(db, p, id)).toBe(plusDays(T0, 2));
  });

  it('stamps calls written by call/upsert_batch and OTLP export too', async () => {
    const db = getDb();
    const store = createStore({ db, catalogue });
    const p = 'ttl/paths';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 10 }, ctx);
    const id = '0197331c-0000-7000-8000-000000000001';
    await store.callUpsertBatch(
      {
        batch: [
          { mode: 'start', req: startReq(p, { id }) },
          { mode: 'end', req: endReq(p, id) },
        ],
      },
      ctx,
    );
    expect(await expireAt(db, p, id)).toBe(plusDays(T0, 10));
    const startNs = BigInt(Date.parse(T0)) * 1_000_000n;
    const span = fixtureSpan({
      traceId: Buffer.alloc(16, 1),
      spanId: Buffer.alloc(8, 2),
      name: 'chat',
      kind: 3,
      startTimeUnixNano: String(startNs),
      endTimeUnixNano: String(startNs + 5_000_000n),
    });
    const bytes = ExportTraceServiceRequest.encode({
      resourceSpans: [
        {
          resource: { attributes: [], droppedAttributesCount: 0 },
          scopeSpans: [{ scope: undefined, spans: [span], schemaUrl: '' }],
          schemaUrl: '',
        },
      ],
    }).finish();
    const request = ExportTraceServiceRequest.decode(bytes);
    expect(await store.otelExport({ request, projects: otlpProjects(request, p) }, ctx)).toEqual({});
    expect(await expireAt(db, p, '0202020202020202')).toBe(plusDays(T0, 10));
  });

  it('adds whole days in UTC whatever the session time zone, and gives none past year 9999', async () => {
    const db = getDb();
    const at = (iso: string, days: number | null) =>
      db.kysely.transaction().execute(async (trx) => {
        if (db.dialect === 'postgres') await sql`set local timezone = 'America/New_York'`.execute(trx);
        const { rows } = await sql<{ r: string | null }>`select ${isoPlusDays(db, sql`${iso}`, sql`${days}`)} as r`.execute(trx);
        return rows[0]?.r;
      });
    // Across a daylight-saving change in New York: still 24 h a day.
    expect(await at('2025-03-08T10:20:30.123Z', 1)).toBe('2025-03-09T10:20:30.123Z');
    expect(await at('2024-02-28T23:59:59.999Z', 1)).toBe('2024-02-29T23:59:59.999Z');
    expect(await at(T0, 36_500)).toBe(plusDays(T0, 36_500));
    expect(await at('9999-12-01T00:00:00.000Z', 60)).toBeNull();
    expect(await at(T0, null)).toBeNull();
  });
});
