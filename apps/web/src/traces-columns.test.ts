import { describe, expect, it } from 'vitest';
import { DEFAULT_COLUMNS, formatColumns, isSearchField, parseColumns, preview, searchFields, toggleColumn } from './traces-columns.ts';

describe('column choice in the URL', () => {
  it('is the default set without a parameter, and writes no parameter for it', () => {
    expect([...parseColumns(null)]).toEqual(DEFAULT_COLUMNS);
    expect(formatColumns(parseColumns(null))).toBeUndefined();
  });

  it('round-trips a choice in picker order, ignoring unknown ids; none is "-"', () => {
    const withUser = toggleColumn(parseColumns(null), 'user', true);
    expect(formatColumns(withUser)).toBe('io,op,status,latency,tokens,cost,feedback,user');
    expect(formatColumns(toggleColumn(withUser, 'user', false))).toBeUndefined();
    expect([...parseColumns('thread,nope,latency')]).toEqual(['thread', 'latency']);
    expect(formatColumns(parseColumns('thread,latency'))).toBe('latency,thread');
    expect(formatColumns(new Set())).toBe('-');
    expect(parseColumns('-').size).toBe(0);
  });
});

describe('preview', () => {
  it('shows an object as key: value pairs on one line, cut at the limit', () => {
    expect(preview({ question: 'How do I\nreset  it?', n: 2, tags: ['a'] })).toBe('question: How do I reset it?, n: 2, tags: ["a"]');
    expect(preview('plain answer')).toBe('plain answer');
    expect(preview(null)).toBe('');
    expect(preview({ _type: 'X', a: 1 })).toBe('a: 1');
    const long = preview({ text: 'x'.repeat(200) }, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('searchFields', () => {
  it('offers string inputs, a string output or its string keys, inputs first, and keeps the chosen one', () => {
    const calls = [
      { inputs: { question: 'q', n: 1, 'a.b': 'dotted' }, output: { answer: 'a', score: 1 } },
      { inputs: { question: 'r', user: 'u' }, output: 'text' },
    ];
    expect(searchFields(calls)).toEqual(['inputs.question', 'inputs.user', 'output', 'output.answer']);
    expect(searchFields([], 'inputs.topic')).toEqual(['inputs.topic']);
  });

  it('accepts only fields the store can search', () => {
    expect(isSearchField('inputs.question')).toBe(true);
    expect(isSearchField('output')).toBe(true);
    expect(isSearchField('inputs')).toBe(false);
    expect(isSearchField('inputs.a.b')).toBe(false);
    expect(isSearchField('summary.x')).toBe(false);
  });
});
