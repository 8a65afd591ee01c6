#!/usr/bin/env node
// `pnpm pack:server [--out DIR]`: the server as one npm tarball, weft-server-<version>.tgz, that
// `npm install -g ./weft-server-*.tgz` installs on any machine with Node 20 (README, "Install from
// a tarball"). The root script builds first (turbo), so this only assembles what the builds made.
//
// Why a staged package with bundledDependencies, not a bundler: the server's dist/ runs as built,
// so what is installed is what the test suite ran. A bundler would have to learn every file Node
// finds at run time (the digest and SQLite worker files, the spec's JSON, pino's transports,
// better-sqlite3's native addon) and would run code no test has run. Here the workspace
// packages (@weft/*, which are not on npm) travel inside the tarball under node_modules/, and
// every other dependency is an ordinary dependency at the version the lockfile tested, installed
// by npm from the registry (better-sqlite3 fetches or compiles its addon as it always does).
//
// Layout: apps/server/dist and apps/web/dist keep their places relative to each other, so the
// server finds Studio's files exactly as it does in a clone (config.ts, DEFAULT_WEB_DIR).
// Left out: @weft/json-native (a C++ addon built by node-gyp; @weft/core answers the same in
// JavaScript without it) and tsx (it only runs the TypeScript sources).
// Not carried: the workspace's patch of express-openapi-validator (patches/), which only caches
// compiled route patterns; the registry's release answers the same, a little slower.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { parse: parseYaml } = createRequire(join(repo, 'apps/server/package.json'))('yaml');
const { values: args } = parseArgs({ options: { out: { type: 'string' } } });
// pnpm runs root scripts from the repository; INIT_CWD is where the command was typed.
const out = resolve(process.env.INIT_CWD ?? process.cwd(), args.out ?? '.');

/** The workspace packages the server needs at run time: bundled into the tarball. */
const BUNDLED = ['@weft/core', '@weft/router', '@weft/spec', '@weft/store', '@weft/types'];
const LEFT_OUT = new Set(['@weft/json-native', 'tsx']);
/** Files beside dist/ that a package reads at run time. */
const DATA = { '@weft/core': ['catalogue'], '@weft/spec': ['openapi.json'] };
const DIRS = {
  '@weft/server': 'apps/server',
  '@weft/web': 'apps/web',
  '@weft/core': 'packages/core',
  '@weft/router': 'packages/router',
  '@weft/spec': 'spec',
  '@weft/store': 'packages/store',
  '@weft/types': 'packages/types',
};

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const catalog = parseYaml(readFileSync(join(repo, 'pnpm-workspace.yaml'), 'utf8')).catalog;

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

/** Built files only: no source maps or declarations (nothing in the installed server reads them). */
const runtimeFile = (src) => !/\.(map|d\.ts|tsbuildinfo)$/.test(src);

function copyBuilt(from, to) {
  if (!existsSync(from)) throw new Error(`${from} is missing: run \`pnpm build\` first`);
  cpSync(from, to, { recursive: true, filter: runtimeFile });
}

/** Third-party dependencies at the catalog's (the lockfile's) exact versions. */
function addDependencies(into, pkg) {
  for (const [name, spec] of Object.entries(pkg.dependencies ?? {})) {
    if (name.startsWith('@weft/') || LEFT_OUT.has(name)) continue;
    const version = spec === 'catalog:' ? catalog[name] : spec;
    if (!version) throw new Error(`${pkg.name}: no catalog version for ${name}`);
    if (into[name] && into[name] !== version) throw new Error(`${name}: ${into[name]} and ${version} both wanted`);
    into[name] = version;
  }
}

/** Exports without the sources' condition and without subpaths to sources or tests. */
function builtExports(exports) {
  const kept = {};
  for (const [path, target] of Object.entries(exports)) {
    if (typeof target === 'string') {
      if (!/^\.\/(src|test)\//.test(target)) kept[path] = target;
      continue;
    }
    const { '@weft/source': _source, ...rest } = target;
    kept[path] = rest;
  }
  return kept;
}

const server = readJson(join(repo, 'apps/server/package.json'));
const version = server.version;
const stage = mkdtempSync(join(tmpdir(), 'weft-server-pack-'));
try {
  const dependencies = {};
  addDependencies(dependencies, server);
  copyBuilt(join(repo, 'apps/server/dist'), join(stage, 'apps/server/dist'));
  copyBuilt(join(repo, 'apps/web/dist'), join(stage, 'apps/web/dist'));
  // The commit, captured now: the installed package has no git repository to ask (version.ts).
  writeFileSync(join(stage, 'apps/server/dist/build-info.json'), `${JSON.stringify({ version, commit: gitCommit() })}\n`);

  for (const name of BUNDLED) {
    const dir = join(repo, DIRS[name]);
    const pkg = readJson(join(dir, 'package.json'));
    addDependencies(dependencies, pkg);
    const into = join(stage, 'node_modules', name);
    mkdirSync(into, { recursive: true });
    if (name !== '@weft/spec') copyBuilt(join(dir, 'dist'), join(into, 'dist')); // the spec is its JSON
    for (const data of DATA[name] ?? []) copyBuilt(join(dir, data), join(into, data));
    // No dependencies of their own: the package's (listed above) resolve from its node_modules.
    writeFileSync(
      join(into, 'package.json'),
      `${JSON.stringify({ name, version, private: true, type: pkg.type, exports: builtExports(pkg.exports) }, null, 2)}\n`,
    );
  }

  const manifest = {
    name: 'weft-server',
    version,
    description: 'Weft: a self-hostable store for LLM traces, evaluations and RL trajectories, with Weft Studio',
    license: 'Apache-2.0',
    type: 'module',
    bin: { weft: 'apps/server/dist/main.js' },
    engines: readJson(join(repo, 'package.json')).engines,
    files: ['apps', 'CHANGELOG.md'],
    // npm packs a bundled package only when it is a dependency too; installing, it uses the copy
    // in the tarball and asks the registry nothing about it.
    dependencies: Object.fromEntries(
      [...Object.entries(dependencies), ...BUNDLED.map((name) => [name, version])].sort(([a], [b]) => a.localeCompare(b)),
    ),
    bundleDependencies: BUNDLED,
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(repo, 'README.md'), join(stage, 'README.md'));
  cpSync(join(repo, 'CHANGELOG.md'), join(stage, 'CHANGELOG.md'));

  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', out, '--loglevel=error'], { cwd: stage, encoding: 'utf8' }),
  );
  // The tarball's path alone on stdout: scripts capture it.
  process.stdout.write(`${join(out, packed[0].filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
