// A small disk of the test's own, to fill to ENOSPC under a SQLite database: a tmpfs mounted on a
// temp dir. Mounting needs root (CAP_SYS_ADMIN); without it the suite is skipped loudly, except
// under CI=true as root, where CI promises it and a failure to mount fails the suite.
import { execFile, execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onProcessExit } from './exit-cleanup.ts';
import { describeWhenAvailable, reasonOf, type Availability, type Requirement } from './skip-loudly.ts';

const execFileAsync = promisify(execFile);
const FILLER = '.filler';

export interface SmallDisk {
  /** Where the tmpfs is mounted: put the SQLite file here. */
  readonly dir: string;
  readonly sizeBytes: number;
  /**
   * Writes a filler file until the disk refuses with ENOSPC; answers the bytes it took. Files
   * already there stay; tmpfs allocates whole pages, so a write inside a page a file already has
   * (SQLite rewriting a page of its file) still succeeds: only growth fails.
   */
  fill(): number;
  /** Deletes the filler: the space is free again. */
  free(): void;
  /** Bytes an unprivileged writer could still write. */
  availableBytes(): number;
  /** Unmounts (lazily, if a process still holds a file there) and removes the directory. */
  unmount(): Promise<void>;
}

let probed: Promise<Availability> | undefined;

/** Whether a tmpfs can be mounted here: tries once, with a 1 MB one. */
export function smallDiskAvailability(): Promise<Availability> {
  probed ??= (async () => {
    if (process.getuid?.() !== 0) return { available: false, reason: `mounting a tmpfs needs root; running as uid ${process.getuid?.()}` };
    try {
      const disk = await mountSmallDisk(1);
      await disk.unmount();
      return { available: true };
    } catch (err) {
      return { available: false, reason: `mounting a tmpfs failed: ${reasonOf(err)}` };
    }
  })();
  return probed;
}

/** CI runs as root and promises a working mount there. */
export const smallDiskRequirement = (): Requirement => ({
  required: process.env.CI === 'true' && process.getuid?.() === 0,
  by: 'CI=true as root',
});

/** A suite on a small disk; `availability` from `await smallDiskAvailability()` at the top of the file. */
export function describeWithSmallDisk(name: string, availability: Availability, body: () => void): void {
  describeWhenAvailable(name, availability, smallDiskRequirement(), body);
}

export async function mountSmallDisk(sizeMb = 24): Promise<SmallDisk> {
  const dir = mkdtempSync(join(tmpdir(), 'weft-disk-'));
  try {
    await execFileAsync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0777`, 'tmpfs', dir]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as Error & { stderr?: string };
    throw new Error(e.stderr?.trim() || e.message, { cause: err });
  }
  let mounted = true;
  const unregister = onProcessExit(() => {
    if (!mounted) return;
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  const filler = join(dir, FILLER);
  return {
    dir,
    sizeBytes: sizeMb * 1024 * 1024,
    fill() {
      const fd = openSync(filler, 'a');
      let bytes = 0;
      try {
        // Large writes first, then pages (tmpfs allocates whole pages), until nothing fits.
        for (const chunk of [Buffer.alloc(1024 * 1024), Buffer.alloc(4096)]) {
          for (;;) {
            try {
              bytes += writeSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw err;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return bytes;
    },
    free() {
      rmSync(filler, { force: true });
    },
    availableBytes() {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    async unmount() {
      if (!mounted) return;
      try {
        await execFileAsync('umount', [dir]);
      } catch {
        // Busy: a process (a server under test) still holds a file here. Detach it now; the
        // kernel frees the memory when the last file closes.
        await execFileAsync('umount', ['-l', dir]);
      }
      mounted = false;
      unregister();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
