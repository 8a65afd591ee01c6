import Database from 'better-sqlite3';
const db = new Database('/tmp/e1.sqlite', { readonly: true });
console.log(db.prepare('select sqlite_version() v').get());
const d = 'bb25a0f74cce3c108af694138c8b7ad1e0c5254667f81117839c400742f6bdca';
function time(label: string, q: string, ...p: unknown[]) {
  const t = performance.now(); const rows = db.prepare(q).all(...p); console.log(label, (performance.now() - t).toFixed(0), rows.length);
}
time('scan join count', `select count(*) from table_rows tr join rows r on r.project_id=tr.project_id and r.digest=tr.row_digest where tr.project_id='b/p' and tr.table_digest=?`, d);
time('scan join length', `select sum(length(r.val)) from table_rows tr join rows r on r.project_id=tr.project_id and r.digest=tr.row_digest where tr.project_id='b/p' and tr.table_digest=?`, d);
time('json_type', `select count(json_type(r.val, '$.scores.judge.score')) from table_rows tr join rows r on r.project_id=tr.project_id and r.digest=tr.row_digest where tr.project_id='b/p' and tr.table_digest=?`, d);
time('topk simple', `select tr.row_index from table_rows tr join rows r on r.project_id=tr.project_id and r.digest=tr.row_digest where tr.project_id='b/p' and tr.table_digest=? order by r.val ->> '$.scores.judge.score', tr.row_index limit 100`, d);
time('window simple', `select tr.row_index, row_number() over (order by r.val ->> '$.scores.judge.score', tr.row_index) from table_rows tr join rows r on r.project_id=tr.project_id and r.digest=tr.row_digest where tr.project_id='b/p' and tr.table_digest=?`, d);
