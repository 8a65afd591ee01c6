// file/create and file/content: Weave digests of the raw bytes, stored once per project and digest.
import { digestBytes, WeftError } from '@weft/core';
import { expect, it } from 'vitest';
import { fileMethods } from '../../src/files/index.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
// Every byte value, NULs and invalid UTF-8 included: the store must not treat files as text.
const ALL_BYTES = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256);

describeEachDialect('files', (getDb) => {
  it("returns Weave's digest of the raw bytes and gives the bytes back unchanged", async () => {
    const files = fileMethods({ db: getDb() });
    const hello = new TextEncoder().encode('hello world\n');
    expect(await files.fileCreate({ project_id: 'f/a', content: hello }, ctx)).toEqual({
      digest: 'qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc', // the spec's example, as Weave computes it
    });
    const { digest } = await files.fileCreate({ project_id: 'f/a', content: ALL_BYTES }, ctx);
    expect(digest).toBe(digestBytes(ALL_BYTES));
    expect(Buffer.from(await files.fileContent({ project_id: 'f/a', digest }, ctx)).equals(Buffer.from(ALL_BYTES))).toBe(true);
  });

  it('checks the digest a client computed: the same is stored, another refused with nothing stored', async () => {
    const db = getDb();
    const files = fileMethods({ db });
    const hello = new TextEncoder().encode('hello world\n');
    const expected_digest = 'qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc';
    expect(await files.fileCreate({ project_id: 'f/expected', content: hello, expected_digest }, ctx)).toEqual({ digest: expected_digest });
    const other = new TextEncoder().encode('hello world!\n');
    const refused = await files.fileCreate({ project_id: 'f/expected', content: other, expected_digest }, ctx).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(WeftError);
    expect(refused).toMatchObject({ status: 409, errorType: 'DigestMismatchError' });
    const rows = await db.kysely.selectFrom('files').select('digest').where('project_id', '=', 'f/expected').execute();
    expect(rows).toEqual([{ digest: expected_digest }]);
    // null: not checked, as pydantic sends an unset field.
    expect((await files.fileCreate({ project_id: 'f/expected', content: other, expected_digest: null }, ctx)).digest).toBe(
      digestBytes(other),
    );
  });

  it('stores an empty file', async () => {
    const files = fileMethods({ db: getDb() });
    const { digest } = await files.fileCreate({ project_id: 'f/empty', content: new Uint8Array() }, ctx);
    expect(digest).toBe('47DEQpj8HBSaXYTImWX5JCeuQeRkm5NMpJWZG3hSuFU');
    expect((await files.fileContent({ project_id: 'f/empty', digest }, ctx)).byteLength).toBe(0);
  });

  it('is idempotent: uploading the same bytes again keeps one row and the same digest', async () => {
    const db = getDb();
    const files = fileMethods({ db });
    const content = new TextEncoder().encode('def my_op(x): return x\n');
    const results = await Promise.all([1, 2, 3].map(() => files.fileCreate({ project_id: 'f/idem', content }, ctx)));
    expect(new Set(results.map((r) => r.digest)).size).toBe(1);
    const rows = await db.kysely.selectFrom('files').select(['digest', 'size_bytes']).where('project_id', '=', 'f/idem').execute();
    expect(rows).toEqual([{ digest: results[0]?.digest, size_bytes: content.byteLength }]);
  });

  it('stores a view of a larger buffer as just its bytes', async () => {
    const files = fileMethods({ db: getDb() });
    const view = ALL_BYTES.subarray(10, 20);
    const { digest } = await files.fileCreate({ project_id: 'f/view', content: view }, ctx);
    expect(digest).toBe(digestBytes(view));
    expect([...(await files.fileContent({ project_id: 'f/view', digest }, ctx))]).toEqual([...view]);
  });

  it('keeps projects apart and answers 404 "File <digest> not found" for a missing file', async () => {
    const files = fileMethods({ db: getDb() });
    const { digest } = await files.fileCreate({ project_id: 'f/mine', content: ALL_BYTES }, ctx);
    const missing = files.fileContent({ project_id: 'f/other', digest }, ctx);
    await expect(missing).rejects.toBeInstanceOf(WeftError);
    await expect(missing).rejects.toMatchObject({ status: 404, errorType: 'NotFoundError', message: `File ${digest} not found` });
    await expect(files.fileContent({ project_id: 'f/mine', digest: 'nope' }, ctx)).rejects.toMatchObject({ status: 404 });
  });
});
