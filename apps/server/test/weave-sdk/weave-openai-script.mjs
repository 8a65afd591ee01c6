// A user's program: the Weave SDK traces an op that asks a model through an `openai` client
// wrapped with weave's wrapOpenAI, whose baseURL is a router (Weft's, in production). It passes
// the SDK's current call to the router as X-Weft-Trace-Id / X-Weft-Parent-Call-Id, so the router's
// call becomes a child of the SDK's. Prints `WEFT_E2E_RESULT <json>` with the SDK's own view.
//
// Why a custom `fetch`: weave 0.11.1's wrapOpenAI passes only the request body on to the client
// (per-request options such as `{ headers }` are dropped), and the SDK sends no propagation header
// of its own. The client's `fetch` runs inside the wrapped op, where the SDK's call stack holds the
// `openai.chat.completions.create` call it is recording.
//
// Environment: WF_TRACE_SERVER_URL, WANDB_API_KEY (read by the SDK), WEFT_E2E_PROJECT,
// WEFT_E2E_ROUTER_URL (the router's base URL), WEFT_E2E_ROUTER_KEY, WEFT_E2E_MODEL (a router model).
import OpenAI from 'openai';
import weave from 'weave';

const { init, op, wrapOpenAI, requireCurrentCallStackEntry } = weave;
const project = process.env.WEFT_E2E_PROJECT;
const client = await init(project, { printCallLink: false });

/** fetch that names the SDK's current call to the router. */
async function fetchWithWeaveParent(url, init = {}) {
  const headers = new Headers(init.headers);
  try {
    const call = requireCurrentCallStackEntry();
    headers.set('X-Weft-Trace-Id', call.traceId);
    headers.set('X-Weft-Parent-Call-Id', call.callId);
  } catch {
    // Not inside a traced op: the router's call starts a trace of its own.
  }
  return fetch(url, { ...init, headers });
}

const openai = wrapOpenAI(
  new OpenAI({
    baseURL: process.env.WEFT_E2E_ROUTER_URL,
    apiKey: process.env.WEFT_E2E_ROUTER_KEY,
    project,
    fetch: fetchWithWeaveParent,
    maxRetries: 0,
  }),
);

const agent = op(
  async function agent(question) {
    const completion = await openai.chat.completions.create({
      model: process.env.WEFT_E2E_MODEL,
      messages: [{ role: 'user', content: question }],
    });
    return completion.choices[0].message.content;
  },
  { parameterNames: ['question'] },
);

const answer = await agent('What is Weft?');
await client.waitForBatchProcessing();
const calls = (await client.getCalls({})).map((c) => ({
  id: c.id,
  op_name: c.op_name,
  trace_id: c.trace_id,
  parent_id: c.parent_id ?? null,
}));
console.log(`WEFT_E2E_RESULT ${JSON.stringify({ answer, calls })}`);
