// Child-process entry of the router scenario's upstream: the leanest OpenAI-compatible server
// (node:http, a constant answer), so the figures measure the router, not the fake. The bench
// calls it directly (the baseline) and through Weft's router (the same bytes upstream).
// BENCH_UPSTREAM_DELAY_MS: wait before answering. A streamed request gets BENCH_STREAM_CHUNKS
// content chunks BENCH_STREAM_GAP_MS apart, then the usage chunk when asked, then [DONE].
// Prints one line `{"url": …}` on stdout once listening; SIGTERM stops it.
import { createServer } from 'node:http';

const delayMs = Number(process.env.BENCH_UPSTREAM_DELAY_MS ?? 0);
const chunks = Number(process.env.BENCH_STREAM_CHUNKS ?? 10);
const gapMs = Number(process.env.BENCH_STREAM_GAP_MS ?? 10);

const usage = { prompt_tokens: 12, completion_tokens: chunks, total_tokens: 12 + chunks };
const completion = (model) =>
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1764252000,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'Hello from the bench upstream.', refusal: null },
        finish_reason: 'stop',
        logprobs: null,
      },
    ],
    usage,
  });
const chunk = (model, delta, finish) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1764252000, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const later = (ms) => new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));

async function stream(req, res, body) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let gone = false;
  res.on('close', () => (gone = true));
  res.write(chunk(body.model, { role: 'assistant', content: '' }, null));
  for (let i = 0; i < chunks && !gone; i++) {
    await later(gapMs);
    res.write(chunk(body.model, { content: `t${i} ` }, null));
  }
  if (gone) return;
  res.write(chunk(body.model, {}, 'stop'));
  if (body.stream_options?.include_usage)
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1764252000, model: body.model, choices: [], usage })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (d) => parts.push(d));
  req.on('end', async () => {
    const body = parts.length ? JSON.parse(Buffer.concat(parts).toString()) : {};
    await later(delayMs);
    if (body.stream) return void stream(req, res, body);
    const text = completion(body.model);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
