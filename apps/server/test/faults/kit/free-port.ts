// Other helpers and CI jobs share the machine, so nothing in the fault kit takes a fixed port:
// the kernel picks a free one (listen on port 0), which is released and handed to a process that
// cannot be told "port 0" and report back (postgres, redis-server). A rare race remains between
// the release and the child's bind; the callers report the child's bind error when it happens.
import { createServer } from 'node:net';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}
