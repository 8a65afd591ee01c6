// The SQLite statement cache: a statement is prepared once and reused, never while it is still
// iterating, and the cache stays bounded.
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../src/db/statement-cache.ts';

describe('withStatementCache', () => {
  const open = () => {
    const sqlite = new BetterSqlite3(':memory:');
    sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
    return sqlite;
  };

  it('reuses the prepared statement of the same text', () => {
    const db = withStatementCache(open());
    const a = db.prepare('select n from t where n > ?');
    expect(db.prepare('select n from t where n > ?')).toBe(a);
    expect(db.prepare('select n from t where n > ?').all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    expect(db.prepare('select n from t where n < ?')).not.toBe(a);
    db.close();
  });

  it('prepares a fresh statement while the kept one is iterating', () => {
    const db = withStatementCache(open());
    const sql = 'select n from t order by n';
    const iterator = db.prepare(sql).iterate([]);
    expect(iterator.next().value).toEqual({ n: 1 });
    // The same text again, mid-iteration: a second statement, and the first goes on.
    expect(db.prepare(sql).all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...iterator]).toEqual([{ n: 2 }, { n: 3 }]);
    db.close();
  });

  it('sees schema changes and keeps a bounded number of statements', () => {
    const sqlite = open();
    const db = withStatementCache(sqlite);
    expect(db.prepare('select * from t').all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    sqlite.exec('alter table t add column m integer default 7');
    expect(db.prepare('select * from t').all([])).toEqual([
      { n: 1, m: 7 },
      { n: 2, m: 7 },
      { n: 3, m: 7 },
    ]);
    const first = db.prepare('select 0 as k');
    for (let i = 1; i <= 300; i++) db.prepare(`select ${i} as k`);
    expect(db.prepare('select 0 as k')).not.toBe(first); // evicted
    db.close();
  });

  it('keeps a long statement once it is seen a second time, and never a one-off', () => {
    const db = withStatementCache(open());
    // A bulk insert's text (over 8,192 characters), as table/create repeats it.
    const long = `insert into t (n) values ${Array.from({ length: 2000 }, () => '(?)').join(', ')}`;
    const first = db.prepare(long);
    const second = db.prepare(long);
    expect(second).not.toBe(first); // seen once: not kept
    expect(db.prepare(long)).toBe(second); // seen again: kept from then on
    expect(db.prepare(long).run(Array.from({ length: 2000 }, (_, i) => i)).changes).toBe(2000);
    // Long one-offs are not kept: 300 of them (more than the cache holds) evict nothing.
    const short = db.prepare('select n from t');
    for (let i = 0; i < 300; i++) db.prepare(`select n from t where n in (${Array.from({ length: 3000 }, (_, j) => j + i).join(', ')})`);
    expect(db.prepare('select n from t')).toBe(short);
    expect(db.prepare(long)).toBe(second);
    db.close();
  });
});
