// Tags and aliases as the read operations see them: the labels of a page of versions
// (`include_tags_and_aliases`) and the objs/query conditions on them.
//
// The virtual `latest` alias is never stored: it is the version with is_latest = 1, so it stays
// right through creates, dedupes and deletes without a second write.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../db/index.ts';

export interface VersionLabels {
  /** Sorted (code point order: both databases compare text byte-wise). */
  tags: string[];
  /** `latest` first on the latest version, then the stored aliases, sorted. */
  aliases: string[];
}

interface VersionKey {
  object_id: string;
  digest: string;
  is_latest: number;
}

/** Rows per look-up: a few hundred bound parameters, far below either database's limit. */
const CHUNK = 500;

const keyOf = (objectId: string, digest: string) => JSON.stringify([objectId, digest]);

/** The tags and aliases of each version, in the order given. */
export async function labelsOf(db: Db, projectId: string, versions: readonly VersionKey[]): Promise<VersionLabels[]> {
  const tags = new Map<string, string[]>();
  const aliases = new Map<string, string[]>();
  for (let i = 0; i < versions.length; i += CHUNK) {
    const chunk = versions.slice(i, i + CHUNK);
    const objectIds = [...new Set(chunk.map((v) => v.object_id))];
    const digests = [...new Set(chunk.map((v) => v.digest))];
    // Both lists bound the PK range; a row of another version of these objects that happens to
    // have one of these digests is only read, then not matched below.
    const [tagRows, aliasRows] = await Promise.all([
      db.kysely
        .selectFrom('object_tags')
        .select(['object_id', 'digest', 'tag'])
        .where('project_id', '=', projectId)
        .where('object_id', 'in', objectIds)
        .where('digest', 'in', digests)
        .orderBy('tag')
        .execute(),
      db.kysely
        .selectFrom('object_aliases')
        .select(['object_id', 'digest', 'alias'])
        .where('project_id', '=', projectId)
        .where('object_id', 'in', objectIds)
        .where('digest', 'in', digests)
        .orderBy('alias')
        .execute(),
    ]);
    for (const r of tagRows) push(tags, keyOf(r.object_id, r.digest), r.tag);
    for (const r of aliasRows) push(aliases, keyOf(r.object_id, r.digest), r.alias);
  }
  return versions.map((v) => {
    const key = keyOf(v.object_id, v.digest);
    const stored = aliases.get(key) ?? [];
    return { tags: tags.get(key) ?? [], aliases: v.is_latest === 1 ? ['latest', ...stored] : stored };
  });
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The version (a row of `objects`) has any of these tags. */
export function hasAnyTag(eb: ExpressionBuilder<Database, 'objects'>, tags: readonly string[]): Expression<SqlBool> {
  return eb.exists(
    eb
      .selectFrom('object_tags as t')
      .select(sql.lit(1).as('one'))
      .whereRef('t.project_id', '=', 'objects.project_id')
      .whereRef('t.object_id', '=', 'objects.object_id')
      .whereRef('t.digest', '=', 'objects.digest')
      .where('t.tag', 'in', [...tags]),
  );
}

/** One of these aliases points at the version; `latest` is the latest version. */
export function hasAnyAlias(eb: ExpressionBuilder<Database, 'objects'>, aliases: readonly string[]): Expression<SqlBool> {
  const stored = aliases.filter((a) => a !== 'latest');
  const conditions: Expression<SqlBool>[] = [];
  // Literal `= 1`: the planners can then use the partial index on the latest versions.
  if (stored.length < aliases.length) conditions.push(eb('objects.is_latest', '=', sql.lit(1)));
  if (stored.length > 0) {
    conditions.push(
      eb.exists(
        eb
          .selectFrom('object_aliases as a')
          .select(sql.lit(1).as('one'))
          .whereRef('a.project_id', '=', 'objects.project_id')
          .whereRef('a.object_id', '=', 'objects.object_id')
          .whereRef('a.digest', '=', 'objects.digest')
          .where('a.alias', 'in', stored),
      ),
    );
  }
  return conditions.length === 1 ? conditions[0]! : eb.or(conditions);
}
