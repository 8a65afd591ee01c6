// The floor of the router scenario: the least a Node proxy can do to serve a chat completion
// from the same upstream. node:http reads and parses the request, one undici Agent (the options
// of the router's provider agents) sends it upstream with the endpoint's model name, and the
// answer comes back: a JSON answer parsed and rewritten (`model`, `provider`) as the router does,
// a stream piped through as it arrives. No auth, validation, limits, metrics or recording: what
// Weft's router costs above this is Weft's.
import { createServer, type Server } from 'node:http';
import { Agent, request } from 'undici';

export function bareProxyServer(upstream: string, upstreamModel: string): Server {
  const agent = new Agent({ connect: { timeout: 10_000 }, headersTimeout: 60_000, bodyTimeout: 0 });
  const target = `${upstream}/chat/completions`;
  return createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      void relay(Buffer.concat(parts).toString()).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
    async function relay(text: string): Promise<void> {
      const body = JSON.parse(text) as { model: string; stream?: boolean };
      const model = body.model;
      const answer = await request(target, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, model: upstreamModel }),
      });
      if (body.stream === true) {
        res.writeHead(answer.statusCode, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for await (const chunk of answer.body) if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
        res.end();
        return;
      }
      const completion = (await answer.body.json()) as Record<string, unknown>;
      completion.model = model;
      completion.provider = 'bench';
      const out = JSON.stringify(completion);
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    }
  });
}
