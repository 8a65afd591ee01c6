import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-write.ts';

describe('writeFileAtomic', () => {
  it('replaces an existing file and makes it owner-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-atomic-'));
    const path = join(dir, 'auth.yaml');
    writeFileSync(path, 'old', { mode: 0o644 });
    writeFileAtomic(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['auth.yaml']);
  });

  it('in exclusive mode leaves an existing file alone and fails with EEXIST', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-atomic-'));
    const path = join(dir, 'auth.yaml');
    writeFileSync(path, 'theirs');
    expect(() => writeFileAtomic(path, 'mine', { exclusive: true })).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(readFileSync(path, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['auth.yaml']);
  });
});
