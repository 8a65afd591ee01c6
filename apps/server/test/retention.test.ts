// Retention on a real server, on both databases: Weave's /project/ttl_settings/read and update
// (validation 422, tenancy 403), calls stamped with their expiry, and the sweeper deleting expired
// calls with their feedback and the files only they referenced, counted on /metrics.
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from './test-server.ts';

const DAY = 86_400_000;

/** The answer's JSON, with the few fields the tests read. */
interface Body {
  detail?: Array<{ loc: string[] }>;
  call?: { expire_at: string; started_at: string };
  result?: unknown;
}

function api(server: TestServer, who: 'alice' | 'bob' = 'alice') {
  const key = who === 'alice' ? server.aliceKey : server.bobKey;
  const authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  return async (path: string, body: unknown): Promise<{ status: number; body: Body | string }> => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Body) : text };
  };
}

async function upload(server: TestServer, project_id: string, text: string): Promise<string> {
  const form = new FormData();
  form.set('project_id', project_id);
  form.set('file', new Blob([text]), 'f.txt');
  const res = await fetch(`${server.url}/file/create`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}` },
    body: form,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { digest: string }).digest;
}

const locs = (body: Body | string) => (typeof body === 'string' ? [] : (body.detail ?? []).map((d) => d.loc));
const image = (digest: string) => ({ _type: 'CustomWeaveType', weave_type: { type: 'PIL.Image.Image' }, files: { 'image.png': digest } });

async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeEachDatabase(
  'retention',
  (getServer) => {
    it('reads and updates a project retention as Weave does', async () => {
      const alice = api(getServer());
      const project_id = 'acme/ttl-settings';
      expect(await alice('/project/ttl_settings/read', { project_id })).toEqual({ status: 200, body: { retention_days: null } });
      expect(await alice('/project/ttl_settings/update', { project_id, retention_days: 30, wb_user_id: null })).toEqual({
        status: 200,
        body: { retention_days: 30 },
      });
      expect(await alice('/project/ttl_settings/read', { project_id })).toEqual({ status: 200, body: { retention_days: 30 } });
      // Weave's default: no retention_days is None, which clears it.
      expect(await alice('/project/ttl_settings/update', { project_id })).toEqual({ status: 200, body: { retention_days: null } });
      expect(await alice('/project/ttl_settings/read', { project_id })).toEqual({ status: 200, body: { retention_days: null } });
    });

    it('refuses a bad retention with 422 naming it, and keeps the setting', async () => {
      const alice = api(getServer());
      const project_id = 'acme/ttl-refused';
      await alice('/project/ttl_settings/update', { project_id, retention_days: 5 });
      for (const retention_days of [0, -1, 36_501, 1.5, '30', true]) {
        const res = await alice('/project/ttl_settings/update', { project_id, retention_days });
        expect(res.status, JSON.stringify(retention_days)).toBe(422);
        expect(locs(res.body), JSON.stringify(retention_days)).toContainEqual(['body', 'retention_days']);
      }
      const extra = await alice('/project/ttl_settings/update', { project_id, retention_days: 3, retention_hours: 1 });
      expect(extra.status).toBe(422);
      expect(locs(extra.body)).toContainEqual(['body', 'retention_hours']);
      expect((await alice('/project/ttl_settings/read', { project_id, include_history: true })).status).toBe(422);
      expect(await alice('/project/ttl_settings/read', { project_id })).toEqual({ status: 200, body: { retention_days: 5 } });
    });

    it("answers another entity's key with 403 and changes nothing", async () => {
      const bob = api(getServer(), 'bob');
      const project_id = 'acme/ttl-tenancy';
      await api(getServer())('/project/ttl_settings/update', { project_id, retention_days: 9 });
      expect((await bob('/project/ttl_settings/read', { project_id })).status).toBe(403);
      expect((await bob('/project/ttl_settings/update', { project_id, retention_days: 1 })).status).toBe(403);
      expect(await api(getServer())('/project/ttl_settings/read', { project_id })).toEqual({ status: 200, body: { retention_days: 9 } });
    });

    it('sweeps expired calls with their feedback and the files only they referenced', async () => {
      const server = getServer();
      const alice = api(server);
      const project_id = 'acme/ttl-sweep';
      const [gone, kept] = [await upload(server, project_id, 'only the old call'), await upload(server, project_id, 'also an object')];
      await alice('/obj/create', { obj: { project_id, object_id: 'logo', val: image(kept) } });
      await alice('/project/ttl_settings/update', { project_id, retention_days: 1 });
      const old = new Date(Date.now() - 3 * DAY).toISOString();
      const start = (id: string, started_at: string, inputs: object) =>
        alice('/call/start', { start: { project_id, id, op_name: 'op', started_at, attributes: {}, inputs } });
      // Feedback first: the sweeper (every 200 ms) may take the old call as soon as it is stored,
      // and feedback written after that would outlive it.
      for (const id of ['old', 'new']) {
        const fb = await alice('/feedback/create', {
          project_id,
          weave_ref: `weave:///${project_id}/call/${id}`,
          feedback_type: 'x',
          payload: {},
        });
        expect(fb.status).toBe(200);
      }
      expect((await start('old', old, { a: image(gone), b: image(kept) })).status).toBe(200);
      expect((await start('new', new Date().toISOString(), {})).status).toBe(200);
      // The live call carries its expiry (started_at + 1 day).
      const { call } = (await alice('/call/read', { project_id, id: 'new' })).body as Required<Body>;
      expect(Date.parse(call.expire_at) - Date.parse(call.started_at)).toBe(DAY);

      // The server's sweeper (every 200 ms here) deletes the old call.
      const read = await eventually(
        () => alice('/call/read', { project_id, id: 'old' }),
        (r) => r.status === 404,
      );
      expect(read.status).toBe(404);
      const feedback = await alice('/feedback/query', { project_id, fields: ['weave_ref'] });
      expect((feedback.body as Body).result).toEqual([{ weave_ref: `weave:///${project_id}/call/new` }]);
      expect((await alice('/call/read', { project_id, id: 'new' })).status).toBe(200);
      const content = (digest: string) => alice('/file/content', { project_id, digest });
      const file = await eventually(
        () => content(gone),
        (r) => r.status === 404,
      );
      expect(file.status).toBe(404);
      expect((await content(kept)).status).toBe(200);

      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toMatch(/weft_retention_deleted_total\{kind="calls"\} [1-9]/);
      expect(metrics).toMatch(/weft_retention_deleted_total\{kind="feedback"\} [1-9]/);
      expect(metrics).toMatch(/weft_retention_deleted_total\{kind="files"\} [1-9]/);
    });
  },
  { RETENTION_SWEEP_INTERVAL: '200ms', RETENTION_FILE_GRACE: '0' },
);
