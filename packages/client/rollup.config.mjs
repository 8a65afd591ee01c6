// Bundles the client's declarations into one dist/index.d.ts with the Weft API's wire types
// (@weft/types, generated from the spec; built before the client) inlined, so the published
// package needs no workspace package: only openapi-fetch. The per-file declarations tsc wrote
// are then removed: they still name @weft/types.
import { readdirSync, rmSync } from 'node:fs';
import { dts } from 'rollup-plugin-dts';

const pruneDeclarations = {
  name: 'prune-declarations',
  writeBundle() {
    for (const file of readdirSync('dist')) if (file.endsWith('.d.ts') && file !== 'index.d.ts') rmSync(`dist/${file}`);
  },
};

export default {
  input: 'dist/index.d.ts',
  output: { file: 'dist/index.d.ts', format: 'es' },
  plugins: [
    dts({ includeExternal: ['@weft/types'], compilerOptions: { baseUrl: '.', paths: { '@weft/types': ['../types/dist/index.d.ts'] } } }),
    pruneDeclarations,
  ],
};
