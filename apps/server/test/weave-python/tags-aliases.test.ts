// Tags and aliases as the Weave Python SDK's bindings send them (RemoteHTTPTraceServer's
// obj_add_tags … aliases_list): PUT /objs/{object_id}/versions/{digest}/tags and POST …/remove
// with `{project_id, tags}`, PUT /objs/{object_id}/aliases with `{project_id, digest, aliases}`,
// POST …/aliases/remove with `{project_id, aliases}`, GET /tags and /aliases with `project_id` as a
// query parameter; then objs_query and obj_read as pydantic dumps them, every field written out.
// No Content-Type on any of it. Then the name rules: 422 with the documented body. Both databases.
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk, type PythonSdk } from './wire.ts';

/** ObjQueryReq as pydantic dumps it: every field, unset ones null, defaults written out. */
const objQueryReq = (project_id: string, filter: Record<string, unknown>) => ({
  project_id,
  filter: {
    base_object_classes: null,
    exclude_base_object_classes: null,
    leaf_object_classes: null,
    object_ids: null,
    is_op: null,
    latest_only: null,
    tags: null,
    aliases: null,
    ...filter,
  },
  limit: null,
  offset: null,
  sort_by: [{ field: 'created_at', direction: 'asc' }],
  metadata_only: false,
  include_storage_size: false,
  include_tags_and_aliases: true,
});

async function publish(sdk: PythonSdk, project_id: string, object_id: string, val: unknown): Promise<string> {
  const res = await sdk.post('/obj/create', { obj: { project_id, object_id, val, builtin_object_class: null, wb_user_id: null } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { digest: string }).digest;
}

describeEachDatabase('Weave Python SDK: tags and aliases', (getServer) => {
  it('tags and aliases versions, finds them by tag and alias, and reads a version by alias', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-tags';
    const v0 = await publish(sdk, project_id, 'support-prompt', { system: 'Be brief.' });
    const v1 = await publish(sdk, project_id, 'support-prompt', { system: 'Be brief and kind.' });

    const tags = (digest: string) => `/objs/support-prompt/versions/${digest}/tags`;
    let res = await sdk.put(tags(v0), { project_id, tags: ['reviewed', 'staging'] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });
    // The server-side request model's dump (with its wb_user_id) is taken too.
    res = await sdk.put(tags(v1), { project_id, tags: ['reviewed'], wb_user_id: null });
    expect(res.status).toBe(200);
    res = await sdk.post(`${tags(v0)}/remove`, { project_id, tags: ['staging'] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });

    res = await sdk.put('/objs/support-prompt/aliases', { project_id, digest: v0, aliases: ['production', 'candidate'] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });
    // Setting an alias again moves it.
    res = await sdk.put('/objs/support-prompt/aliases', { project_id, digest: v1, aliases: ['candidate'] });
    expect(res.status).toBe(200);

    res = await sdk.post('/objs/query', objQueryReq(project_id, { object_ids: ['support-prompt'] }));
    expect(res.status).toBe(200);
    const { objs } = (await res.json()) as { objs: { digest: string; tags: string[]; aliases: string[] }[] };
    expect(objs.map((o) => [o.digest, o.tags, o.aliases])).toEqual([
      [v0, ['reviewed'], ['production']],
      [v1, ['reviewed'], ['latest', 'candidate']],
    ]);
    const digestsOf = async (filter: Record<string, unknown>) =>
      ((await (await sdk.post('/objs/query', objQueryReq(project_id, filter))).json()) as { objs: { digest: string }[] }).objs.map(
        (o) => o.digest,
      );
    expect(await digestsOf({ tags: ['reviewed'] })).toEqual([v0, v1]);
    expect(await digestsOf({ aliases: ['production'] })).toEqual([v0]);
    expect(await digestsOf({ aliases: ['latest'] })).toEqual([v1]);

    // obj_read: ObjReadReq with its defaults; `digest` an alias.
    res = await sdk.post('/obj/read', {
      project_id,
      object_id: 'support-prompt',
      digest: 'production',
      metadata_only: false,
      include_tags_and_aliases: false,
    });
    expect(res.status).toBe(200);
    const { obj } = (await res.json()) as { obj: Record<string, unknown> };
    expect(obj).toMatchObject({ digest: v0, val: { system: 'Be brief.' } });
    expect('tags' in obj).toBe(false);

    expect(await (await sdk.get('/tags', { project_id })).json()).toEqual({ tags: ['reviewed'] });
    expect(await (await sdk.get('/aliases', { project_id })).json()).toEqual({ aliases: ['candidate', 'production'] });
    res = await sdk.post('/objs/support-prompt/aliases/remove', { project_id, aliases: ['production'] });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });
    expect(await (await sdk.get('/aliases', { project_id })).json()).toEqual({ aliases: ['candidate'] });

    // Deleting a version takes its tags and the aliases pointing at it.
    res = await sdk.post('/obj/delete', { project_id, object_id: 'support-prompt', digests: [v1] });
    expect(res.status).toBe(200);
    expect(await (await sdk.get('/aliases', { project_id })).json()).toEqual({ aliases: [] });
    expect(await digestsOf({ tags: ['reviewed'] })).toEqual([v0]);
  });

  it('answers 404 for tags or an alias on a version that does not exist', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-tags-404';
    const digest = await publish(sdk, project_id, 'prompt', { n: 1 });
    const res = await sdk.put('/objs/prompt/versions/g8xB784Zx14VgRVYOeuKukfyZG0m36nntfFPCR5QrIs/tags', { project_id, tags: ['x'] });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 404,
      body: { reason: 'Object version prompt:g8xB784Zx14VgRVYOeuKukfyZG0m36nntfFPCR5QrIs not found', error_type: 'NotFoundError' },
    });
    expect((await sdk.put('/objs/other/aliases', { project_id, digest, aliases: ['production'] })).status).toBe(404);
  });

  it('refuses tag and alias names outside the rules with 422 naming each one', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-tag-names';
    const digest = await publish(sdk, project_id, 'prompt', { n: 1 });
    const addTags = (names: string[]) => sdk.put(`/objs/prompt/versions/${digest}/tags`, { project_id, tags: names });
    const setAliases = (names: string[]) => sdk.put('/objs/prompt/aliases', { project_id, digest, aliases: names });

    const good = {
      tags: ['reviewed', 'production ready', 'a-b_c', 'überprüft', 'v0', 'x'.repeat(256)],
      aliases: ['release 1.0', 'v1.2', 'latest-stable', 'vx', 'a'.repeat(128), 'prod ✓'],
    };
    expect((await addTags(good.tags)).status).toBe(200);
    expect((await setAliases(good.aliases)).status).toBe(200);

    const badTags = ['', 'env:prod', 'two  spaces', ' leading', 'trailing ', 'a/b', 'x'.repeat(257)];
    const tagsRes = await addTags(badTags);
    expect(tagsRes.status).toBe(422);
    const tagDetail = ((await tagsRes.json()) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
    // Every bad name is named by its place in the list.
    expect(new Set(tagDetail.map((d) => d.loc.join('.')))).toEqual(new Set(badTags.map((_, i) => `body.tags.${i}`)));
    for (const d of tagDetail) expect(d).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });

    const badAliases = ['', 'latest', 'v0', 'v123', 'a/b', 'a:b', '   ', 'a'.repeat(129)];
    for (const [i, name] of badAliases.entries()) {
      for (const res of [await setAliases([name]), await sdk.post('/objs/prompt/aliases/remove', { project_id, aliases: [name] })]) {
        expect(res.status, JSON.stringify(name)).toBe(422);
        const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
        expect(
          detail.map((d) => d.loc.join('.')),
          `${i}: ${JSON.stringify(name)}`,
        ).toContain('body.aliases.0');
      }
    }
    // Nothing of a refused request was stored.
    expect(await (await sdk.get('/tags', { project_id })).json()).toEqual({ tags: [...good.tags].sort() });
  });

  it("refuses a field Weave's request models do not define, and a sort field it would ignore, with 422 naming it", async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-obj-fields';
    const digest = await publish(sdk, project_id, 'prompt', { n: 1 });
    const cases: [string, string, unknown, string][] = [
      ['/objs/query', 'POST', { ...objQueryReq(project_id, {}), include_feedback: true }, 'body.include_feedback'],
      ['/objs/query', 'POST', objQueryReq(project_id, { tag: ['x'] }), 'body.filter.tag'],
      ['/objs/query', 'POST', { ...objQueryReq(project_id, {}), sort_by: [{ field: 'digest', direction: 'asc' }] }, 'body.sort_by.0.field'],
      [
        '/objs/query',
        'POST',
        { ...objQueryReq(project_id, {}), sort_by: [{ field: 'created_at', direction: 'asc', order: 1 }] },
        'body.sort_by.0.order',
      ],
      ['/obj/read', 'POST', { project_id, object_id: 'prompt', digest, metadata_only: false, expand: true }, 'body.expand'],
      ['/obj/delete', 'POST', { project_id, object_id: 'prompt', digests: null, force: true }, 'body.force'],
      [`/objs/prompt/versions/${digest}/tags`, 'PUT', { project_id, tags: ['x'], object_id: 'prompt' }, 'body.object_id'],
      ['/objs/prompt/aliases', 'PUT', { project_id, digest, aliases: ['x'], version: 1 }, 'body.version'],
    ];
    for (const [path, method, body, loc] of cases) {
      const res = method === 'PUT' ? await sdk.put(path, body) : await sdk.post(path, body);
      expect(res.status, `${path} ${loc}`).toBe(422);
      const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
      expect(
        detail.map((d) => d.loc.join('.')),
        path,
      ).toContain(loc);
    }
  });
});
