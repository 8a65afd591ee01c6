// A streamed body (the trajectory log, 64 MB+) is read whole before the store's transaction opens,
// so that a slow upload never holds the database (SQLite has one writer). Held in memory, the whole
// body sat there when its parse began and set the route's peak RSS; so past its first MB it goes to
// a temporary file instead, and is read back a MB at a time as it is parsed.
//
// The file is in os.tmpdir() (TMPDIR chooses) and unlinked as soon as it is open: Linux keeps it
// while the descriptor is open, so a crash or a kill leaves nothing behind, and closing it frees the
// space. Chunks are written a MB at a time, and each write is awaited before the next chunk is
// read, so a slow disk holds the client back instead of piling chunks up in memory.
import { randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceUnavailable } from '@weft/core';
import { readEachChunk } from './read-bytes.ts';

/** A body read whole, in memory or in a temporary file. Close it once done (the dispatcher does). */
export interface SpooledBody {
  /** Bytes (after inflating). */
  readonly size: number;
  /**
   * The body in order, at most about 1 MB a chunk. A chunk is only valid until the next one is
   * asked for (the file's chunks share one buffer): decode or copy it first.
   */
  chunks(): AsyncIterable<Buffer>;
  /** Lets the file go (its disk space is freed then); safe to call more than once. */
  close(): Promise<void>;
}

/** Bodies up to this size stay in memory (most logs): no file is opened for them. */
export const IN_MEMORY_BYTES = 1 << 20;

/** Chunks are gathered to this size before each write to the file. */
const WRITE_BYTES = 1 << 20;

/** The size of each read from the file: what the log reader parses per turn of the event loop. */
const READ_BYTES = 1 << 20;

/**
 * Reads the body (inflated, within `limit`, with the errors of every body: 415, 413, 400) into a
 * SpooledBody. A file that cannot be created or written answers 503: the body was fine, the
 * server is not (a full disk, a TMPDIR that is missing or read-only).
 */
export async function spoolBody(req: IncomingMessage, limit: number): Promise<SpooledBody> {
  const spool = new Spool();
  try {
    await readEachChunk(req, limit, (chunk) => spool.write(chunk));
    await spool.flush();
  } catch (err) {
    await spool.close();
    if (err instanceof SpoolFailure) {
      req.log?.error({ err: err.cause }, 'could not write a request body to a temporary file');
      throw serviceUnavailable(`The server could not store the request body (${err.code}); retry later`);
    }
    throw err;
  }
  return spool;
}

/** The body of a request that has none. */
export const emptyBody = (): SpooledBody => new Spool();

/** A failed open or write of the file (told apart from the body's own errors). */
class SpoolFailure extends Error {
  constructor(
    readonly code: string,
    override readonly cause: unknown,
  ) {
    super(`spool: ${code}`);
  }
}

class Spool implements SpooledBody {
  size = 0;
  /** The first bytes, up to IN_MEMORY_BYTES; the rest is in the file. */
  private head: Buffer[] = [];
  private headBytes = 0;
  private file: FileHandle | undefined;
  private closed = false;
  /** Read but not yet written to the file (less than WRITE_BYTES). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  async write(chunk: Buffer): Promise<void> {
    if (!this.file && this.headBytes + chunk.length <= IN_MEMORY_BYTES) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      this.size += chunk.length;
      return;
    }
    // The socket hands over ~64 kB at a time: written one by one, each waited its own trip through
    // libuv's thread pool. Gathered to a MB per write, a large body spools faster.
    // The file is opened as soon as the body outgrows memory, so a TMPDIR that cannot take it is
    // found at once.
    if (!this.file) await this.guarded(async () => (this.file = await openUnlinked()));
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.size += chunk.length;
    if (this.pendingBytes >= WRITE_BYTES) await this.flush();
  }

  /** Runs a file operation; its failure becomes a SpoolFailure (told apart from the body's errors). */
  private async guarded(op: () => Promise<unknown>): Promise<void> {
    try {
      await op();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new SpoolFailure(typeof code === 'string' ? code : 'EIO', err);
    }
  }

  /** Writes what `write` still holds; the body is complete once this has resolved. */
  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const buffers = this.pending;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    const file = this.file;
    if (!file) throw new Error('the spool has no file to write to');
    const at = this.size - this.headBytes - bytes;
    const whole = buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers, bytes);
    await this.guarded(async () => {
      // A positioned write may write less than asked (a nearly full disk): write the rest.
      for (let done = 0; done < bytes;) {
        const { bytesWritten } = await file.write(whole, done, bytes - done, at + done);
        if (bytesWritten === 0) throw Object.assign(new Error('nothing written'), { code: 'EIO' });
        done += bytesWritten;
      }
    });
  }

  async *chunks(): AsyncGenerator<Buffer> {
    for (const chunk of this.head) yield chunk;
    const fileBytes = this.size - this.headBytes;
    if (fileBytes === 0) return;
    // One buffer for the whole read: the reader decodes each chunk before asking for the next.
    const buffer = Buffer.allocUnsafe(Math.min(READ_BYTES, fileBytes));
    for (let at = 0; at < fileBytes;) {
      if (this.closed || !this.file) throw new Error('the spooled body is closed');
      const { bytesRead } = await this.file.read(buffer, 0, Math.min(buffer.length, fileBytes - at), at);
      if (bytesRead === 0) throw new Error(`the spooled body ended at ${at} of ${fileBytes} bytes`);
      at += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.head = [];
    this.pending = [];
    const file = this.file;
    this.file = undefined;
    // A close that fails still lets the descriptor go (close(2) frees it whatever it answers), and
    // the request is answered by then: nothing left to do or tell.
    await file?.close().catch(() => undefined);
  }
}

/** A new file in TMPDIR, only this process can read, with no name left once open. */
async function openUnlinked(): Promise<FileHandle> {
  const path = join(tmpdir(), `weft-body-${randomUUID()}`);
  const file = await open(path, 'wx+', 0o600);
  try {
    await unlink(path);
  } catch (err) {
    await file.close();
    throw err;
  }
  return file;
}
