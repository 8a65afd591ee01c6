// An OpenAI-compatible upstream that answers every request well, in the form asked (a stream when
// the body says `stream: true`, with the usage chunk when asked; embeddings on /embeddings): for
// suites that cannot script each request, such as the contract suite.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completion, embeddings, textChunks, usageChunk, usageOf } from '@weft/router/testing';

export interface SteadyUpstream {
  base_url: string;
  close(): Promise<void>;
}

export async function startSteadyUpstream(): Promise<SteadyUpstream> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
      };
      if (req.url?.endsWith('/embeddings')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(embeddings([[0.0123, -0.5, 0.25, 0.75]])));
      } else if (body.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const events = [...textChunks(['Weft is ', 'a trace store.'])];
        if (body.stream_options?.include_usage === true) events.push(usageChunk(usageOf(9, 2)));
        res.end(`${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion('Weft is a trace store.')));
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
