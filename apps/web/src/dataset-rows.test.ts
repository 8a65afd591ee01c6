import { describe, expect, it } from 'vitest';
import { datasetVal, rowsOfCalls, tableDigestOf } from './dataset-rows.ts';

const call = (id: string, inputs: Record<string, unknown>, output?: unknown) => ({ id, project_id: 'acme/bot', inputs, output });

describe('dataset rows from calls', () => {
  it('keeps the inputs in their order, adds the expected output when asked, and the source call', () => {
    const result = rowsOfCalls(
      [call('c1', { question: 'q', lang: 'en' }, { answer: 'a' }), call('c2', { question: 'r', lang: 'fr' })],
      true,
    );
    expect(result).toEqual({
      rows: [
        { question: 'q', lang: 'en', expected_output: { answer: 'a' }, source_call_ref: 'weave:///acme/bot/call/c1' },
        { question: 'r', lang: 'fr', expected_output: null, source_call_ref: 'weave:///acme/bot/call/c2' },
      ],
    });
    const rows = 'rows' in result ? result.rows : [];
    expect(Object.keys(rows[0]!)).toEqual(['question', 'lang', 'expected_output', 'source_call_ref']);
    expect(rowsOfCalls([call('c1', { q: 1 }, 'x')], false)).toEqual({ rows: [{ q: 1, source_call_ref: 'weave:///acme/bot/call/c1' }] });
  });

  it('refuses a call whose input the added columns would overwrite', () => {
    expect(rowsOfCalls([call('c1', { source_call_ref: 'mine' })], false)).toEqual({
      error: 'Call c1 has an input named source_call_ref, which the dataset row would overwrite',
    });
    expect(rowsOfCalls([call('c1', { expected_output: 1 })], true)).toMatchObject({ error: /expected_output/ });
    expect(rowsOfCalls([call('c1', { expected_output: 1 })], false)).toMatchObject({ rows: [{ expected_output: 1 }] });
  });

  it('writes a Dataset as Weave’s SDK does, and reads its table back', () => {
    const val = datasetVal('acme/bot', 'cases', null, 'ab12');
    expect(val).toEqual({
      _type: 'Dataset',
      name: 'cases',
      description: null,
      rows: 'weave:///acme/bot/table/ab12',
      _class_name: 'Dataset',
      _bases: ['Object', 'BaseModel'],
    });
    expect(tableDigestOf(val)).toBe('ab12');
    expect(tableDigestOf({ rows: [] })).toBeUndefined();
  });
});
