import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseByteSize } from '../src/config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, dataDir: resolve('data'), bodyLimit: 32 * 1024 ** 2 });
    expect(c.logBodyLimit).toBeGreaterThanOrEqual(64 * 1024 ** 2);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: '80a', LOG_LEVEL: 'loud', BODY_LIMIT: 'lots', DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const name of ['PORT', 'LOG_LEVEL', 'BODY_LIMIT', 'DATABASE_URL']) expect(message).toContain(name);
    }
  });

  it('resolves relative paths against the directory the command ran in (WEFT_CWD)', () => {
    const c = loadConfig({
      WEFT_CWD: '/srv/weft',
      DATA_DIR: 'state',
      AUTH_FILE: 'auth.yaml',
      MODELS_FILE: '/etc/weft/models.json',
      DATABASE_URL: 'sqlite:db/weft.sqlite',
    });
    expect(c).toMatchObject({
      dataDir: '/srv/weft/state',
      authFile: '/srv/weft/auth.yaml',
      modelsFile: '/etc/weft/models.json',
      databaseUrl: 'sqlite:/srv/weft/db/weft.sqlite',
    });
    expect(loadConfig({ WEFT_CWD: '/srv/weft', DATABASE_URL: 'sqlite::memory:' }).databaseUrl).toBe('sqlite::memory:');
  });

  it('reads the retention sweeper interval and file grace, where 0 turns each off', () => {
    expect(loadConfig({})).toMatchObject({ retentionSweepIntervalMs: 60_000, retentionFileGraceMs: 3_600_000 });
    expect(loadConfig({ RETENTION_SWEEP_INTERVAL: '0', RETENTION_FILE_GRACE: '0s' })).toMatchObject({
      retentionSweepIntervalMs: 0,
      retentionFileGraceMs: 0,
    });
    expect(loadConfig({ RETENTION_SWEEP_INTERVAL: '5m', RETENTION_FILE_GRACE: '90s' })).toMatchObject({
      retentionSweepIntervalMs: 300_000,
      retentionFileGraceMs: 90_000,
    });
    expect(() => loadConfig({ RETENTION_SWEEP_INTERVAL: 'hourly', RETENTION_FILE_GRACE: '-1s' })).toThrow(
      /RETENTION_SWEEP_INTERVAL[\s\S]*RETENTION_FILE_GRACE/,
    );
  });

  it('reads CORS_ORIGINS as exact origins, or `*` alone, and refuses anything a browser never sends', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ CORS_ORIGINS: '*,https://app.example.com' })).toThrow(/CORS_ORIGINS must be `\*` alone/);
    for (const bad of ['https://app.example.com/', 'app.example.com', 'https://App.example.com', 'https://a.example.com/path']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS must be exact origins .*is not one/);
    }
  });

  it('reads TRUST_PROXY as a hop count or a list Express understands, off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8' }).trustProxy).toBe('loopback,10.0.0.0/8,fd00::/8');
    for (const bad of ['true', 'nginx', '999.1.1.1', '10.0.0.0/99']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY must be/);
    }
  });

  it('parses sizes', () => {
    expect(parseByteSize('64mb')).toBe(64 * 1024 ** 2);
    expect(parseByteSize('512KB')).toBe(512 * 1024);
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('0')).toBeUndefined();
    expect(parseByteSize('-1mb')).toBeUndefined();
  });
});
