// The baselines of call/read: the least a Node server can do to answer the same call. Both read
// the request body (a real server must) and answer the same constant JSON Weft answers.
import { createServer, type Server } from 'node:http';
import express from 'express';

/** node:http alone: read the body, write the bytes. */
export function bareHttpServer(responseBody: string): Server {
  const bytes = Buffer.from(responseBody);
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
      res.end(bytes);
    });
  });
}

/** One Express 5 route with the JSON body parser, answering with res.json as Weft's handlers do. */
export function bareExpressServer(responseBody: string): Server {
  const value: unknown = JSON.parse(responseBody);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.post('/call/read', express.json(), (_req, res) => {
    res.json(value);
  });
  return createServer(app);
}
