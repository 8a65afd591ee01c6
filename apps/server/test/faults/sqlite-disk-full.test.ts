// SQLite's disk fills up under the server (a small tmpfs filled to ENOSPC): writes answer 507
// InsufficientStorage, nothing acknowledged is lost, reads keep working, the process lives, and
// once space is freed writes are stored again, with no restart. The log names SQLITE_FULL, never
// the "cannot rollback" that used to hide it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorTypeOf, expectAnsweredWithinDeadline, expectLedgerIntact, expectRecovers, FAULT_ENV, ok } from './fault-checks.ts';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { describeWithSmallDisk, mountSmallDisk, smallDiskAvailability, type SmallDisk } from './kit/small-disk.ts';
import { waitFor } from './kit/wait-for.ts';
import { WriteLedger } from './kit/write-ledger.ts';

const availability = await smallDiskAvailability();

describeWithSmallDisk('SQLite on a full disk', availability, () => {
  let disk: SmallDisk;
  let server: ServerProcess;

  beforeAll(async () => {
    disk = await mountSmallDisk(32);
    server = await startServerProcess({ env: { ...FAULT_ENV, DATABASE_URL: `sqlite:${disk.dir}/weft.sqlite` } });
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await disk?.unmount();
  });

  it('answers writes 507 and reads 200 while the disk is full, and stores again once space is freed', async () => {
    // Heavy values, so that every write grows the files (a write into pages they already have
    // would still fit on a full tmpfs).
    const ledger = new WriteLedger({ target: server, writers: 3, padBytes: 256 * 1024, maxAttempts: 2, retryOn: [503] });
    ledger.start();
    try {
      await waitFor(() => ledger.acknowledged().length >= 6, { timeoutMs: 30_000, what: 'writes before the disk fills' });
      disk.fill();
      await waitFor(() => ledger.attempts.filter((a) => a.label === '507').length >= 3, {
        timeoutMs: 20_000,
        what: 'writes to be refused 507 on the full disk',
      });
      const read = await server.call('/objs/query', { project_id: ledger.projectId, limit: 5 });
      expect(ok(read), read.kind === 'answer' ? read.text : read.code).toBe(true);
      const refused = await server.call('/obj/create', {
        obj: { project_id: `${ledger.projectId}-probe`, object_id: 'big', val: { pad: 'x'.repeat(1 << 20) } },
      });
      expect([refused.kind === 'answer' && refused.status, errorTypeOf(refused)]).toEqual([507, 'InsufficientStorage']);
      disk.free();
      await expectRecovers(server, ledger.projectId, 'the full disk');
    } finally {
      disk.free();
      await ledger.stop();
    }
    expectAnsweredWithinDeadline(server, ledger, ['200', '507']);
    await expectLedgerIntact(ledger);
    const log = server.stdout();
    expect(log).toContain('SQLITE_FULL');
    expect(log).not.toContain('cannot rollback');
  }, 120_000);
});
