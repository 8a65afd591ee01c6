// Every text file of the build written beside itself as brotli (`.br`) and gzip (`.gz`), at the
// highest levels once at build time, so the server sends compressed bytes without compressing per
// request (express-static-gzip picks the file by Accept-Encoding). Small files are left alone:
// their compressed form would save less than a packet.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'weft-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of filesUnder(outDir)) {
        if (!TEXT.test(path)) continue;
        const bytes = readFileSync(path);
        if (bytes.length < MIN_BYTES) continue;
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
        );
        writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}
