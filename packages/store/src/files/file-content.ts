// file/content: the stored bytes, exactly as uploaded.
import { notFound } from '@weft/core';
import type { Db } from '../db/index.ts';

export async function fileContent(db: Db, projectId: string, digest: string): Promise<Uint8Array> {
  const row = await db.kysely
    .selectFrom('files')
    .select('content')
    .where('project_id', '=', projectId)
    .where('digest', '=', digest)
    .executeTakeFirst();
  if (!row) throw notFound(`File ${digest} not found`);
  return row.content;
}
