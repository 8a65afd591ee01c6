// The tests that build packages (`pnpm start`, the client tarball) write the same dist/ folders:
// run at once on a fresh clone, one reads files the other is rewriting. They take turns here.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LOCK = join(tmpdir(), 'weft-test-build.lock');

export async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK); // atomic: exactly one caller creates it
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
