// A worker thread of @weft/core, started from its entry file beside the caller. The built package
// runs the entry's .js; from source (tests, the bench, `tsx`) Node cannot load TypeScript in a
// worker, so the entry is bundled to JavaScript with esbuild (a development dependency) and
// evaluated.
import { createRequire } from 'node:module';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type * as Esbuild from 'esbuild';

/** `entry` is the worker's file name without extension, in the directory of `caller` (its import.meta.url). */
export function workerOf(caller: URL, entry: string, resourceLimits: ResourceLimits): Worker {
  // None of the process's own flags: a worker inherits them, and some break it (--input-type).
  const options = { execArgv: [], resourceLimits };
  if (!caller.pathname.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, caller), options);
  // A synchronous require: a thread may be asked for synchronously, and bundling happens once per thread.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const bundled = buildSync({
    entryPoints: [new URL(`./${entry}.ts`, caller).pathname],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    // native-json.ts resolves its addon from its own place, which the bundle's code is not.
    define: { 'import.meta.url': JSON.stringify(new URL('./native-json.ts', import.meta.url).href) },
  });
  return new Worker(bundled.outputFiles[0]!.text, { ...options, eval: true });
}
