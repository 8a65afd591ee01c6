// The small disk: a real tmpfs of the size asked, filled until writes fail with ENOSPC while the
// files already there stay intact, freed again, and unmounted even while a file is held open.
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithSmallDisk, mountSmallDisk, smallDiskAvailability, type SmallDisk } from './small-disk.ts';

const TMPFS_MAGIC = 0x01021994;
const availability = await smallDiskAvailability();

const mounted = (dir: string) =>
  readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[1] === dir);

function enospc(write: () => void): string | undefined {
  try {
    write();
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

describeWithSmallDisk('small disk (tmpfs)', availability, () => {
  let disk: SmallDisk;
  beforeAll(async () => {
    disk = await mountSmallDisk(16);
  });
  afterAll(() => disk?.unmount());

  it('is a tmpfs of the size asked', () => {
    const s = statfsSync(disk.dir);
    expect(s.type).toBe(TMPFS_MAGIC);
    expect(s.blocks * s.bsize).toBe(16 * 1024 * 1024);
    expect(mounted(disk.dir)).toBe(true);
  });

  it('fill() takes every byte: writes and appends fail with ENOSPC, files already there stay intact; free() gives the space back', () => {
    const db = join(disk.dir, 'weft.sqlite');
    // A whole page: tmpfs allocates pages, and bytes up to the end of an allocated page still fit.
    const page = Buffer.alloc(4096, 'SQLite format 3\0');
    writeFileSync(db, page);
    const taken = disk.fill();
    expect(taken).toBeGreaterThan(15 * 1024 * 1024);
    expect(disk.availableBytes()).toBe(0);
    expect(enospc(() => appendFileSync(db, Buffer.alloc(4096)))).toBe('ENOSPC');
    expect(enospc(() => writeFileSync(join(disk.dir, 'new-file'), Buffer.alloc(4096)))).toBe('ENOSPC');
    expect(readFileSync(db).equals(page)).toBe(true);

    disk.free();
    expect(disk.availableBytes()).toBeGreaterThanOrEqual(taken);
    expect(enospc(() => appendFileSync(db, Buffer.alloc(1024 * 1024)))).toBeUndefined();
  });

  it('unmount() detaches the disk even while a file on it is open, and removes the directory', async () => {
    const other = await mountSmallDisk(1);
    const fd = openSync(join(other.dir, 'held'), 'w');
    await other.unmount();
    closeSync(fd);
    expect(mounted(other.dir)).toBe(false);
    expect(existsSync(other.dir)).toBe(false);
  });
});
