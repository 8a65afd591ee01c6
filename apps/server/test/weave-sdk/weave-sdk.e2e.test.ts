// The published `weave` npm SDK (the version in apps/server's devDependencies) against a real
// Weft server: a script traces nested, failing and image-taking ops, publishes objects and a
// dataset, reads calls back, renames a call and scores it, all through the SDK; then this test
// checks through Weft's own client that the server recorded what the SDK meant.
import { digestBytes } from '@weft/core';
import type * as T from '@weft/types';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { runSdkScript, type SdkRun } from './run-sdk-script.ts';

const PROJECT = 'acme/weave-sdk-e2e';
const OPS = ['add', 'answer', 'refuse', 'describe_image', 'correctness'];
const digestOf = (ref: string) => ref.slice(ref.lastIndexOf(':') + 1);

interface SdkCall {
  id: string;
  op_name: string;
  trace_id: string;
  parent_id?: string;
  display_name?: string;
  inputs: Record<string, unknown>;
  output?: unknown;
  exception?: string;
  summary?: { weave?: Record<string, unknown> };
}
interface SdkResult {
  caught: string;
  scored: unknown;
  png: string;
  objects: { v0: string; v0Again: string; v1: string };
  dataset: { ref: string; objectId: string; tableDigest: string; rowDigests: string[]; rows: unknown[]; readBackRows: unknown[] };
  calls: SdkCall[];
  roots: string[];
  single: SdkCall;
  unknownCount: number;
  feedbackId: string;
}

// On both databases (PostgreSQL skipped loudly when unreachable, failing under WEFT_REQUIRE_PG=1),
// each with a fresh server and database and its own run of the script.
describeEachDatabase('the weave SDK against Weft', (getServer) => {
  let run: SdkRun;
  beforeAll(async () => {
    run = await runSdkScript({ url: getServer().url, apiKey: getServer().aliceKey, project: PROJECT, timeoutMs: 90_000 });
  }, 120_000);

  /** The script's result; a failed run fails every test with the SDK's own output. */
  function sdk(): SdkResult {
    if (run.result === undefined) throw new Error(`the SDK script gave no result\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
    return run.result as SdkResult;
  }
  const callOf = (name: string): SdkCall => {
    const call = sdk().calls.find((c) => c.op_name.includes(`/op/${name}:`));
    if (!call) throw new Error(`the SDK saw no call of ${name}`);
    return call;
  };
  const readCall = async (id: string) =>
    (
      await getServer()
        .client()
        .POST('/call/read', { body: { project_id: PROJECT, id } })
    ).call;
  const allObjs = async () =>
    (
      await getServer()
        .client()
        .POST('/objs/query', { body: { project_id: PROJECT } })
    ).objs;

  it('runs to the end: exit 0, no failed upload or batch, no error output', () => {
    const output = `${run.stdout}\n${run.stderr}`;
    expect({ code: run.code, signal: run.signal }, output).toEqual({ code: 0, signal: null });
    expect(output).not.toContain('Error saving file');
    expect(output).not.toMatch(/Error processing batch|Exceeded max errors|Error parsing JSON|Error loading file/);
    // The result line holds call data (a status "error" among it); every other line is the SDK's.
    const sdkLines = output.split('\n').filter((l) => !l.startsWith('WEFT_E2E_RESULT '));
    expect(sdkLines.filter((l) => /error|warn/i.test(l))).toEqual([]);
    expect(run.errorLog, 'weaveErrors.log').toBeUndefined();
    expect(sdk().caught).toBe('refused: no reason');
  });

  it('records every call with its inputs, output, parent and status (call/read)', async () => {
    expect(
      sdk()
        .calls.map((c) => c.op_name.split('/op/')[1]?.split(':')[0])
        .sort(),
    ).toEqual([...OPS].sort());

    const answer = await readCall(callOf('answer').id);
    expect(answer).toMatchObject({
      op_name: callOf('answer').op_name,
      inputs: { question: 'What is 2 + 3?' },
      output: { question: 'What is 2 + 3?', sum: 5 },
      display_name: 'Renamed answer', // set by client.updateCall after the call ended
      attributes: { weave: { source: 'js-sdk', client_version: expect.any(String) } },
      summary: { weave: { status: 'success', display_name: 'Renamed answer', latency_ms: expect.any(Number) } },
      svc_user_id: 'alice',
    });
    expect(answer.parent_id).toBeUndefined();

    const add = await readCall(callOf('add').id);
    expect(add).toMatchObject({ parent_id: answer.id, trace_id: answer.trace_id, inputs: { a: 2, b: 3 }, output: 5 });
    expect(add.summary).toMatchObject({ weave: { status: 'success', trace_name: 'add' } });

    const refuse = await readCall(callOf('refuse').id);
    expect(refuse).toMatchObject({ inputs: { reason: 'no reason' }, output: null, exception: 'refused: no reason' });
    expect(refuse.summary).toMatchObject({ weave: { status: 'error', trace_name: 'refuse' } });
    expect(refuse.trace_id).not.toBe(answer.trace_id);

    const image = await readCall(callOf('describe_image').id);
    expect(image).toMatchObject({
      inputs: {
        image: {
          _type: 'CustomWeaveType',
          weave_type: { type: 'PIL.Image.Image' },
          files: { 'image.png': expect.any(String) },
          load_op: 'NO_LOAD_OP',
        },
        caption: 'a 2x2 test pattern',
      },
      output: { caption: 'a 2x2 test pattern', bytes: Buffer.from(sdk().png, 'base64').length },
      summary: { weave: { status: 'success' } },
    });
  });

  it("gave the SDK's getCalls / getCall the calls the server holds (calls/stream_query)", async () => {
    for (const seen of sdk().calls) {
      const stored = await readCall(seen.id);
      const { id, op_name, trace_id, parent_id, inputs, output, exception } = stored;
      // The SDK read the calls before renaming one: compare what the rename does not touch.
      expect(seen, seen.op_name).toMatchObject(JSON.parse(JSON.stringify({ id, op_name, trace_id, parent_id, inputs, output, exception })));
      expect(seen.summary?.weave?.status).toBe((stored.summary as { weave: { status: string } }).weave.status);
    }
    // filter.trace_roots_only: every call but the nested one; getCall: filter.call_ids.
    expect([...sdk().roots].sort()).toEqual(
      sdk()
        .calls.filter((c) => !c.parent_id)
        .map((c) => c.id)
        .sort(),
    );
    expect(sdk().roots).not.toContain(callOf('add').id);
    expect(sdk().single).toEqual(callOf('answer'));
    expect(sdk().unknownCount).toBe(0);
  });

  it('lists the ops and object versions with kind, classes, version_index and is_latest (objs/query)', async () => {
    const objs = await allObjs();
    for (const name of OPS) {
      const versions = objs.filter((o) => o.object_id === name);
      expect(versions, name).toHaveLength(1);
      expect(versions[0]).toMatchObject({
        kind: 'op',
        base_object_class: '',
        version_index: 0,
        is_latest: 1,
        val: { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: { 'obj.py': expect.any(String) }, load_op: 'NO_LOAD_OP' },
      });
      // The call's op_name is the ref of this very version.
      expect(callOf(name).op_name).toBe(`weave:///${PROJECT}/op/${name}:${versions[0]?.digest}`);
    }

    const { v0, v0Again, v1 } = sdk().objects;
    expect(v0Again).toBe(v0); // publishing an equal value again is the same version
    expect(v1).not.toBe(v0);
    const config = objs.filter((o) => o.object_id === 'agent-config').sort((a, b) => a.version_index - b.version_index);
    expect(
      config.map(({ digest, version_index, is_latest, kind, base_object_class, val }) => ({
        digest,
        version_index,
        is_latest,
        kind,
        base_object_class,
        val,
      })),
    ).toEqual([
      {
        digest: digestOf(v0),
        version_index: 0,
        is_latest: 0,
        kind: 'object',
        base_object_class: '',
        val: { model: 'gpt-test', temperature: 0.5 },
      },
      {
        digest: digestOf(v1),
        version_index: 1,
        is_latest: 1,
        kind: 'object',
        base_object_class: '',
        val: { model: 'gpt-test', temperature: 0.7 },
      },
    ]);
    expect(v0).toBe(`weave:///${PROJECT}/object/agent-config:${digestOf(v0)}`);

    const { ref, objectId, tableDigest } = sdk().dataset;
    expect(objectId).toBe('qa-set'); // the SDK's id for the name "qa set"
    const dataset = objs.filter((o) => o.object_id === 'qa-set');
    expect(dataset).toHaveLength(1);
    expect(dataset[0]).toMatchObject({
      digest: digestOf(ref),
      kind: 'object',
      base_object_class: 'Dataset',
      leaf_object_class: 'Dataset',
      version_index: 0,
      is_latest: 1,
      val: {
        _type: 'Dataset',
        _class_name: 'Dataset',
        _bases: ['Object', 'BaseModel'],
        name: 'qa set',
        description: 'e2e rows',
        rows: `weave:///${PROJECT}/table/${tableDigest}`,
      },
    });
  });

  it('returns the dataset rows in order with the row digests the SDK got (table/query)', async () => {
    const { tableDigest, rowDigests, rows, readBackRows } = sdk().dataset;
    const res = await getServer()
      .client()
      .POST('/table/query', { body: { project_id: PROJECT, digest: tableDigest } });
    expect(res.rows.map((r: T.TableRowSchema) => r.digest)).toEqual(rowDigests);
    expect(res.rows.map((r: T.TableRowSchema) => r.val)).toEqual(rows);
    expect(res.rows.map((r: T.TableRowSchema) => r.original_index)).toEqual([0, 1, 2]);
    expect(readBackRows).toEqual(rows); // what the SDK's ref.get() loaded back
  });

  it('serves the image bytes under the digest the SDK computed, and the ops source (file/content)', async () => {
    const png = Buffer.from(sdk().png, 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    const inputs = callOf('describe_image').inputs as { image: { files: Record<string, string> } };
    const digest = inputs.image.files['image.png'] ?? '';
    expect(digest).toBe(digestBytes(png)); // the SDK's digest is the server's
    const client = getServer().client();
    expect(Buffer.from(await client.fileContent({ project_id: PROJECT, digest })).equals(png)).toBe(true);

    const addOp = (await allObjs()).find((o) => o.object_id === 'add');
    const source = await client.fileContent({
      project_id: PROJECT,
      digest: (addOp?.val as { files: Record<string, string> }).files['obj.py'] ?? '',
    });
    expect(new TextDecoder().decode(source)).toContain('function add(a, b)');
  });

  it("keeps the scorer feedback the SDK's addScore sent (feedback/create, include_feedback)", async () => {
    const answer = callOf('answer');
    const scorer = callOf('correctness');
    expect(sdk().scored).toEqual({ correct: true });
    const [call] = await getServer()
      .client()
      .callsStreamQuery({ project_id: PROJECT, filter: { call_ids: [answer.id] }, include_feedback: true });
    expect((call?.summary as { weave: { feedback: unknown[] } }).weave.feedback).toEqual([
      expect.objectContaining({
        id: sdk().feedbackId,
        feedback_type: 'wandb.runnable.correctness',
        weave_ref: `weave:///${PROJECT}/call/${answer.id}`,
        payload: { output: { correct: true } },
        runnable_ref: scorer.op_name,
        call_ref: `weave:///${PROJECT}/call/${scorer.id}`,
        svc_user_id: 'alice',
      }),
    ]);
  });
});
