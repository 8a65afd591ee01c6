// file/create: the digest is Weave's digest of the raw bytes, so a client that computed it itself
// (the SDKs put it in the value before the upload finishes) gets the same one back.
import { digestBytes, digestMismatch } from '@weft/core';
import type * as T from '@weft/types';
import { nowIso, type Db } from '../db/index.ts';

export async function fileCreate(db: Db, projectId: string, content: Uint8Array, expected?: string | null): Promise<T.FileCreateRes> {
  const digest = digestBytes(content);
  // A client that names the digest it computed is told, before anything is stored, that the
  // server computed another (a corrupted upload, or a client hashing differently).
  if (expected != null && expected !== digest) throw digestMismatch(expected, digest);
  // An upload means a value naming this file is being written: it is no longer the retention
  // sweep's to delete (retention/sweep-files.ts). Before the insert, so a sweep's delete either
  // finds no candidate, or comes first and the insert below stores the file again.
  await db.kysely.deleteFrom('retention_file_candidates').where('project_id', '=', projectId).where('digest', '=', digest).execute();
  // Same digest, same bytes: a second upload (SDKs re-upload an op's source on every run) keeps
  // the first row. DO NOTHING also makes two concurrent uploads safe.
  await db.kysely
    .insertInto('files')
    .values({
      project_id: projectId,
      digest,
      size_bytes: content.byteLength,
      // A Buffer view, not a copy: both drivers bind Buffers as blob/bytea.
      content: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
    .execute();
  return { digest };
}
