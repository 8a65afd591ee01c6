import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { banner } from './banner.ts';

describe('the start-up banner', () => {
  it('names the URLs and the SQLite file', () => {
    const webDir = mkdtempSync(join(tmpdir(), 'weft-banner-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
    const text = banner('http://127.0.0.1:8080', { databaseUrl: undefined, dataDir: '/srv/weft', webDir });
    expect(text).toContain('UI        http://127.0.0.1:8080/\n');
    expect(text).toContain('API       http://127.0.0.1:8080\n');
    expect(text).toContain('spec      http://127.0.0.1:8080/openapi.json\n');
    expect(text).toContain('ready     http://127.0.0.1:8080/ready\n');
    expect(text).toContain('metrics   http://127.0.0.1:8080/metrics\n');
    expect(text).toContain('database  SQLite /srv/weft/weft.sqlite\n');
  });

  it('never shows a PostgreSQL password', () => {
    const text = banner('http://[::1]:9', {
      databaseUrl: 'postgres://weft:s3cret@db.internal:5432/weft',
      dataDir: '/x',
      webDir: '/nowhere',
    });
    expect(text).toContain('UI        not built');
    expect(text).toContain('database  PostgreSQL postgres://weft:***@db.internal:5432/weft\n');
    expect(text).not.toContain('s3cret');
  });
});
