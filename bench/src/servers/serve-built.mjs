// Child-process entry of the Weft server the bench measures: the built JavaScript, as `pnpm start`
// runs it (plain node, no TypeScript loader: tsx's own modules and transformed sources were ~45 MB
// of the resident set, which no deployment carries). `pnpm bench` builds it first. Configured by
// the environment as in production; prints one line `{"url": …}` once listening; SIGTERM stops it.
import { loadConfig } from '@weft/server/dist/config.js';
import { boundHeapGrowth } from '@weft/server/dist/heap-growth.js';
import { startServer } from '@weft/server/dist/server.js';

// As the `weft` command does at start (src/main.ts).
boundHeapGrowth();
const server = await startServer(loadConfig(process.env));
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once('SIGTERM', () => {
  void server.close().finally(() => process.exit(0));
});
