// The spelling PostgreSQL's jsonb gives a number, checked against PostgreSQL itself.
import pg from 'pg';
import { expect, it } from 'vitest';
import { postgresNumberText } from '../../src/transfer/postgres-number.ts';
import { describeIfPostgres, TEST_PG_URL } from '../dialects.ts';

const LEXEMES = [
  '1e2',
  '1.5e3',
  '1.50e3',
  '1e-05',
  '-1.2345e-05',
  '-0.0',
  '-0',
  '1E+16',
  '2.5e-1',
  '0e5',
  '1.0',
  '0.10',
  '-7',
  '123.456e1',
  '9.99E-3',
  '-0e-2',
];

it('leaves plain lexemes as they are and spells exponents out', () => {
  expect(postgresNumberText('1.0')).toBe('1.0');
  expect(postgresNumberText('12345678901234567890')).toBe('12345678901234567890');
  expect(postgresNumberText('1e-05')).toBe('0.00001');
  expect(postgresNumberText('-0.0')).toBe('0.0');
});

describeIfPostgres('postgresNumberText', () => {
  it('spells each number as PostgreSQL jsonb does', async () => {
    const client = new pg.Client({ connectionString: TEST_PG_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ t: string }>(`select $1::jsonb::text as t`, [`[${LEXEMES.join(',')}]`]);
      expect(`[${LEXEMES.map(postgresNumberText).join(', ')}]`).toBe(rows[0]!.t);
    } finally {
      await client.end();
    }
  });
});
