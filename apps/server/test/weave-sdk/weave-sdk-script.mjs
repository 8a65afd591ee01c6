// Drives the published `weave` npm SDK against a Weft server, the way a user's program would, and
// prints what the SDK itself saw as one line `WEFT_E2E_RESULT <json>` on stdout for the test to
// check against the server. Plain .mjs on purpose: no build step stands between us and the SDK.
//
// Environment: WF_TRACE_SERVER_URL and WANDB_API_KEY (read by the SDK), WEFT_E2E_PROJECT
// (`<entity>/<project>`: with the entity, init makes no W&B GraphQL call).
import { deflateSync } from 'node:zlib';
import weave from 'weave';

const { init, op, weaveImage, Dataset } = weave;
const project = process.env.WEFT_E2E_PROJECT;
if (!project || !project.includes('/')) throw new Error('WEFT_E2E_PROJECT must be <entity>/<project>');

const client = await init(project, { printCallLink: false });

// --- Traced ops ---------------------------------------------------------------------------------
const add = op(
  function add(a, b) {
    return a + b;
  },
  { parameterNames: ['a', 'b'] },
);

const answer = op(
  async function answer(question) {
    const sum = await add(2, 3); // a nested call: its parent is this one
    return { question, sum };
  },
  { parameterNames: ['question'] },
);

const refuse = op(
  async function refuse(reason) {
    throw new Error(`refused: ${reason}`);
  },
  { parameterNames: ['reason'] },
);

const describeImage = op(
  async function describe_image(image, caption) {
    return { caption, bytes: image.data.length };
  },
  { parameterNames: ['image', 'caption'] },
);

const correctness = op(
  function correctness(output) {
    return { correct: output.sum === 5 };
  },
  { parameterNames: ['output'] },
);

const png = tinyPng();
await answer('What is 2 + 3?');
let caught = null;
try {
  await refuse('no reason');
} catch (err) {
  caught = err.message;
}
await describeImage(weaveImage({ data: png, imageType: 'png' }), 'a 2x2 test pattern');
const scored = await correctness({ sum: 5 });

// --- Objects --------------------------------------------------------------------------------------
const config = { model: 'gpt-test', temperature: 0.5 };
// Fresh objects each time: the SDK caches a ref on an object it published before.
const v0 = await client.publish({ ...config }, 'agent-config');
const v0Again = await client.publish({ ...config }, 'agent-config');
const v1 = await client.publish({ ...config, temperature: 0.7 }, 'agent-config');

const rows = [
  { question: 'What is 2 + 3?', expected: 5 },
  { question: 'Capital of France?', expected: 'Paris' },
  { question: 'ünïcödé 😀', expected: 1.5 },
];
const dataset = new Dataset({ name: 'qa set', description: 'e2e rows', rows: rows.map((r) => ({ ...r })) });
const datasetRef = await dataset.save();
const rowRefs = await Promise.all(dataset.rows.rows.map((row) => row.__savedRef));
const readBack = await datasetRef.get(); // obj/read + table/query, as a user's program reads it
const readBackRows = readBack.rows.rows.map(({ __savedRef, ...row }) => row);

// --- Calls, read back with the SDK ----------------------------------------------------------------
await client.waitForBatchProcessing();
const calls = (await client.getCalls()).map(summarize);
const byOp = (name) => calls.find((c) => c.op_name.includes(`/op/${name}:`));
const roots = (await client.getCalls({ trace_roots_only: true })).map((c) => c.id);
const answerCall = byOp('answer');
const single = summarize(await client.getCall(answerCall.id));
const unknown = await client.getCalls({ call_ids: ['no-such-call'] }); // an empty JSON Lines answer

await client.updateCall(answerCall.id, 'Renamed answer');
const scorer = byOp('correctness');
const feedbackId = await client.addScore(answerCall.id, scorer.id, scorer.op_name, { correct: true });
await client.waitForBatchProcessing();

console.log(
  `WEFT_E2E_RESULT ${JSON.stringify({
    caught,
    scored,
    png: png.toString('base64'),
    objects: { v0: v0.uri(), v0Again: v0Again.uri(), v1: v1.uri() },
    dataset: {
      ref: datasetRef.uri(),
      objectId: datasetRef.objectId,
      tableDigest: rowRefs[0].digest,
      rowDigests: rowRefs.map((r) => r.rowDigest),
      rows,
      readBackRows,
    },
    calls,
    roots,
    single,
    unknownCount: unknown.length,
    feedbackId,
  })}`,
);

function summarize(call) {
  const { id, op_name, trace_id, parent_id, display_name, inputs, output, exception, summary } = call;
  return { id, op_name, trace_id, parent_id, display_name, inputs, output, exception, summary };
}

/** A real 2x2 RGB PNG (signature, IHDR, IDAT, IEND), so the upload is an actual image. */
function tinyPng() {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0); // width
  ihdr.writeUInt32BE(2, 4); // height
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  // Each scanline: filter byte 0, then RGB pixels (red, green / blue, white).
  const pixels = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
