// Weave's tags and aliases of object versions.
//
// - object_tags: one row per (version, tag); a version is (project_id, object_id, digest) as in
//   `objects`. `object_tags_tag_idx` (project_id, tag) answers the project's tag list and the
//   objs/query tags filter from the tag side.
// - object_aliases: one row per (object, alias) naming one version by its digest, so an alias
//   points at one version at a time and setting it again moves it. The virtual `latest` is never
//   stored: it is the version with is_latest = 1. `object_aliases_alias_idx` (project_id, alias)
//   answers the alias list and the aliases filter.
//
// Rows hang off live versions only: obj/delete removes the tags of the versions it deletes and
// the aliases pointing at them. Keys start with project_id (Citus-distributable); no foreign key
// to `objects`, whose rows are only ever soft-deleted.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function objectTagsAliases(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'object_tags', {
        columns: { project_id: 'text', object_id: 'text', digest: 'text', tag: 'text', created_at: 'text' },
        primaryKey: ['project_id', 'object_id', 'digest', 'tag'],
      });
      await createIndex(db, 'object_tags_tag_idx', 'object_tags', ['project_id', 'tag']);
      await createTable(db, dialect, 'object_aliases', {
        columns: { project_id: 'text', object_id: 'text', alias: 'text', digest: 'text', created_at: 'text' },
        primaryKey: ['project_id', 'object_id', 'alias'],
      });
      await createIndex(db, 'object_aliases_alias_idx', 'object_aliases', ['project_id', 'alias']);
    },
    async down(db) {
      await db.schema.dropTable('object_aliases').execute();
      await db.schema.dropTable('object_tags').execute();
    },
  };
}
