/**
 * Atomic, owner-only file writes for the auth file.
 *
 * Data goes to a temp file in the same directory (so rename stays on one
 * filesystem), is fsynced, and then replaces the target in one step: a crash
 * or a concurrent reader never sees a half-written auth file. Mode 0600
 * because the file says which users exist and holds their key hashes.
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /**
   * When true, fail with an EEXIST error instead of replacing an existing
   * file, so two processes creating the same file cannot both "win" and
   * hand out keys for a file the other then overwrites.
   */
  readonly exclusive?: boolean;
}

export function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions = {}): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) {
      linkExclusive(temp, path);
    } else {
      renameSync(temp, path);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

// link() fails if the target exists, unlike rename(), which replaces it.
function linkExclusive(temp: string, path: string): void {
  try {
    linkSync(temp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    // Some mounted filesystems have no hard links; fall back to check-then-rename,
    // which only loses the guarantee against a simultaneous creator.
    if (existsSync(path)) {
      throw Object.assign(new Error(`EEXIST: file already exists, link '${temp}' -> '${path}'`), { code: 'EEXIST' });
    }
    renameSync(temp, path);
  }
}
