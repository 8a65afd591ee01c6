// An answer sent before the request's body was read whole (a 413 past the limit, a 401 before
// the body, a 415, a 429, a 503 while starting or draining) ends the connection. Kept alive, the
// connection would hold the unread rest of the body in front of the client's next request: Node
// reads it on only if nothing read the body yet, so a refusal in the middle of a body left the
// next request waiting for the idle timeout.
//
// The close lingers: Node would close the socket as soon as the answer is written, and closing a
// socket with unread bytes sends a reset, which can make the client drop the answer it has not
// read yet (the reason Apache and body-parser drain before closing). So the rest of the body is
// read and discarded for a bounded time and size, or until the client stops sending, then the
// socket is closed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hasBody } from './body/read-bytes.ts';

/** How long, and how much, the rest of a refused body is read before the socket is closed. */
const LINGER_MS = 2000;
const LINGER_BYTES = 16 * 1024 * 1024;

/** Call before writing any answer: when the body is still unread, the connection closes after it. */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || !hasBody(req) || res.headersSent) return;
  res.setHeader('Connection', 'close');
  lingerBeforeClosing(req, req.socket);
}

function lingerBeforeClosing(req: IncomingMessage, socket: Socket): void {
  // Node calls destroySoon once the answer is written (res._last: Connection: close).
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) close();
    });
    req.once('end', close);
    req.once('error', close);
    this.once('close', () => clearTimeout(timer));
    req.resume();
  };
}
