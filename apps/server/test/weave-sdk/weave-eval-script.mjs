// Runs evaluations with the published `weave` npm SDK against a Weft server, as a user's program
// would: `Evaluation.evaluate` of two models (a model op, two scorers, a 50-row dataset), then the
// same rows through `EvaluationLogger` (the imperative flow). Every call/upsert_batch and
// feedback/create the SDK sends is recorded on its way out (global fetch, which the SDK calls), so
// the test can check that each call the SDK wrote is stored, and that the ends carried the
// `display_name` that once made Weft refuse whole batches. Prints one line `WEFT_E2E_RESULT <json>`.
//
// Environment: WF_TRACE_SERVER_URL and WANDB_API_KEY (read by the SDK), WEFT_E2E_PROJECT.
import weave from 'weave';

const { init, op, Dataset, Evaluation, EvaluationLogger } = weave;
const project = process.env.WEFT_E2E_PROJECT;
if (!project || !project.includes('/')) throw new Error('WEFT_E2E_PROJECT must be <entity>/<project>');

const wire = { batches: [], feedback: [] };
const sendFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const res = await sendFetch(input, init);
  if (url.endsWith('/call/upsert_batch') && typeof init?.body === 'string') {
    const { batch } = JSON.parse(init.body);
    wire.batches.push({
      status: res.status,
      starts: batch.filter((i) => i.mode === 'start').map((i) => i.req.start.id),
      ends: batch.filter((i) => i.mode === 'end').map((i) => ({ id: i.req.end.id, keys: Object.keys(i.req.end).sort() })),
    });
  } else if (url.endsWith('/feedback/create')) {
    wire.feedback.push(res.status);
  }
  return res;
};

const client = await init(project, { printCallLink: false });

const rows = Array.from({ length: 50 }, (_, i) => ({ n: i, question: `What is ${i} + ${i}?`, expected: 2 * i }));
const dataset = new Dataset({ name: 'sums', rows: rows.map((r) => ({ ...r })) });

// Two models: the second is wrong on every third row (n = 0, 3, …, 48: 17 rows).
const adder = op(async function adder({ datasetRow }) {
  return 2 * datasetRow.n;
});
const sloppyAdder = op(async function sloppy_adder({ datasetRow }) {
  return datasetRow.n % 3 === 0 ? 2 * datasetRow.n + 1 : 2 * datasetRow.n;
});
const exactMatch = op(function exact_match({ datasetRow, modelOutput }) {
  return modelOutput === datasetRow.expected;
});
const distance = op(function distance({ datasetRow, modelOutput }) {
  return Math.abs(modelOutput - datasetRow.expected);
});

const evaluation = new Evaluation({ name: 'sums-eval', dataset, scorers: [exactMatch, distance] });
const summaries = {
  adder: await evaluation.evaluate({ model: adder }),
  sloppy_adder: await evaluation.evaluate({ model: sloppyAdder }),
};

// The imperative flow: predictions and scores logged one by one, scores also written as feedback.
const logger = new EvaluationLogger({ name: 'sums-logged', model: { name: 'logged_adder' }, scorers: ['exact', 'distance'] });
for (const row of rows) {
  const output = row.n % 4 === 0 ? 2 * row.n + 2 : 2 * row.n;
  const scores = logger.logPrediction({ question: row.question, expected: row.expected }, output);
  await scores.logScore('exact', output === row.expected);
  await scores.logScore('distance', Math.abs(output - row.expected));
  await scores.finish();
}
await logger.logSummary();
await client.waitForBatchProcessing();

console.log(`WEFT_E2E_RESULT ${JSON.stringify({ summaries, wire })}`);
