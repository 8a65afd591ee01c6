// Saving an op as the Weave Python SDK does (SER in weave-python-wire.md): it computes the source
// file's digest itself, puts it in the op's value, sends obj/create, and uploads the file to
// /files/create later (possibly after the obj/create). The digests must agree, on both databases.
import { digestBytes } from '@weft/core';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk } from './wire.ts';

const SOURCE = new TextEncoder().encode('import weave\n\n@weave.op\ndef classify(text: str) -> str:\n    return "positive"\n');

describeEachDatabase('Weave Python SDK: an op saved with its source file', (getServer) => {
  it('accepts the op naming the file before the upload, then the upload with the same digest', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-ops';
    const digest = digestBytes(SOURCE); // what the SDK computes locally
    const obj = await sdk.post('/obj/create', {
      obj: {
        project_id,
        object_id: 'classify',
        val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': digest } },
        builtin_object_class: null,
        wb_user_id: null,
      },
    });
    expect(obj.status).toBe(200);
    expect(await obj.json()).toMatchObject({ digest: expect.any(String), object_id: 'classify' });

    const upload = await sdk.upload('/files/create', { project_id }, { name: 'obj.py', bytes: SOURCE });
    expect(upload).toEqual({ status: 200, body: { digest } });
    const read = await sdk.post('/files/content', { project_id, digest });
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.bytes()).equals(Buffer.from(SOURCE))).toBe(true);
    // The same operation under Weft's own path.
    expect(Buffer.from(await (await sdk.post('/file/content', { project_id, digest })).bytes()).equals(Buffer.from(SOURCE))).toBe(true);
  });

  it("checks a newer SDK's expected_digest, refusing a mismatch with nothing stored", async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-ops-expected';
    const good = await sdk.upload('/files/create', { project_id, expected_digest: digestBytes(SOURCE) }, { name: 'obj.py', bytes: SOURCE });
    expect(good).toEqual({ status: 200, body: { digest: digestBytes(SOURCE) } });
    const changed = new TextEncoder().encode('print("changed in transit")\n');
    const bad = await sdk.upload('/files/create', { project_id, expected_digest: digestBytes(SOURCE) }, { name: 'obj.py', bytes: changed });
    expect(bad).toEqual({
      status: 409,
      body: expect.objectContaining({
        error_type: 'DigestMismatchError',
        expected_digest: digestBytes(SOURCE),
        computed_digest: digestBytes(changed),
      }),
    });
    expect((await sdk.post('/files/content', { project_id, digest: digestBytes(changed) })).status).toBe(404);
  });
});
