import { describe, expect, it } from 'vitest';
import { opSourceFiles } from './op-source.ts';

describe('opSourceFiles', () => {
  it("lists an op's files as Weave's SDKs save them, with their language", () => {
    const val = {
      _type: 'CustomWeaveType',
      weave_type: { type: 'Op' },
      files: { 'obj.py': 'abc', 'helper.ts': 'def', 'notes.txt': 'ghi' },
    };
    expect(opSourceFiles(val)).toEqual([
      { name: 'obj.py', digest: 'abc', language: 'python' },
      { name: 'helper.ts', digest: 'def', language: 'typescript' },
      { name: 'notes.txt', digest: 'ghi', language: undefined },
    ]);
  });
  it('finds none in other objects', () => {
    expect(opSourceFiles({ _type: 'CustomWeaveType', weave_type: { type: 'Dataset' }, files: { 'obj.py': 'abc' } })).toEqual([]);
    expect(opSourceFiles({ files: { 'obj.py': 'abc' } })).toEqual([]);
    expect(opSourceFiles('text')).toEqual([]);
    expect(opSourceFiles(null)).toEqual([]);
  });
});
