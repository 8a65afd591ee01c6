import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseByteSize } from '../src/config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: undefined, dataDir: './data', bodyLimit: 32 * 1024 ** 2 });
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

  it('parses sizes', () => {
    expect(parseByteSize('64mb')).toBe(64 * 1024 ** 2);
    expect(parseByteSize('512KB')).toBe(512 * 1024);
    expect(parseByteSize('1048576')).toBe(1048576);
    expect(parseByteSize('0')).toBeUndefined();
    expect(parseByteSize('-1mb')).toBeUndefined();
  });
});
