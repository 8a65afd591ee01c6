// @weft/client as a user installs it: packed to a tarball, installed with npm into a plain Node 20
// project outside the workspace, imported from JavaScript and type-checked from TypeScript
// (its bundled declarations must not need any workspace package), then calling a real server.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';
import { startTestServer, type TestServer } from './test-server.ts';

const execFileAsync = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
let server: TestServer;
let project: string;

beforeAll(async () => {
  server = await startTestServer('sqlite');
  project = mkdtempSync(join(tmpdir(), 'weft-client-user-'));
  const run = async (cmd: string, args: string[], cwd: string) => {
    await execFileAsync(cmd, args, { cwd, encoding: 'utf8' });
  };
  await withBuildLock(async () => {
    await run('pnpm', ['--filter', '@weft/client', 'build'], repo);
    await run('pnpm', ['--filter', '@weft/client', 'pack', '--pack-destination', project], repo);
  });
  const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'weft-client-user', private: true, type: 'module' }));
  await run('npm', ['install', `./${tarball}`, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], project);
}, 400_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

it('works from plain JavaScript in a project outside the workspace', async () => {
  writeFileSync(
    join(project, 'use.mjs'),
    `import { createClient, isWeftApiError } from '@weft/client';
const weft = createClient({ baseUrl: process.env.WEFT_URL, auth: { scheme: 'basic', apiKey: process.env.WEFT_KEY } });
const created = await weft.POST('/obj/create', { body: { obj: { project_id: 'acme/packed', object_id: 'prompt', val: { system: 'Be brief.' } } } });
const { obj } = await weft.POST('/obj/read', { body: { project_id: 'acme/packed', object_id: 'prompt', digest: created.digest } });
let status = 0;
try { await weft.POST('/obj/read', { body: { project_id: 'acme/packed', object_id: 'nope', digest: 'latest' } }); } catch (err) { status = isWeftApiError(err) ? err.status : -1; }
console.log(JSON.stringify({ digest: created.digest, val: obj.val, status }));
`,
  );
  // Not execFileSync: the server answers from this very process.
  const { stdout } = await execFileAsync(process.execPath, ['use.mjs'], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, WEFT_URL: server.url, WEFT_KEY: server.aliceKey },
  });
  expect(JSON.parse(stdout)).toEqual({ digest: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), val: { system: 'Be brief.' }, status: 404 });
});

it('type-checks a TypeScript user of the published declarations, and refuses a wrong field', () => {
  writeFileSync(
    join(project, 'use.ts'),
    `import { createClient, type WeftClient } from '@weft/client';
const weft: WeftClient = createClient({ baseUrl: 'http://127.0.0.1:8080' });
export async function read(): Promise<string> {
  const { obj } = await weft.POST('/obj/read', { body: { project_id: 'a/b', object_id: 'o', digest: 'latest' } });
  return obj.digest;
}
export async function wrong(): Promise<void> {
  // @ts-expect-error: obj/read has no "objectid" field
  await weft.POST('/obj/read', { body: { project_id: 'a/b', objectid: 'o', digest: 'latest' } });
}
`,
  );
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['use.ts'],
    }),
  );
  // Throws (with tsc's output) on any type error, an unused @ts-expect-error included.
  execFileSync(process.execPath, [tsc, '-p', '.'], { cwd: project, encoding: 'utf8' });
});
