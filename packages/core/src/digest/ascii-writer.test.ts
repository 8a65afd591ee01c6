import { describe, expect, it } from 'vitest';
import { AsciiWriter } from './ascii-writer.ts';

describe('AsciiWriter', () => {
  it('grows past its initial size across short, long and single-byte writes', () => {
    const w = new AsciiWriter(4);
    const expected: string[] = [];
    for (let i = 0; i < 500; i++) {
      const piece = i % 3 === 0 ? 'p'.repeat(40 + i) : String(i);
      w.write(piece);
      w.writeByte(0x2c);
      expected.push(piece, ',');
    }
    expect(w.toString()).toBe(expected.join(''));
    expect(w.length).toBe(expected.join('').length);
  });

  it('reset empties it and releases an oversized buffer', () => {
    const w = new AsciiWriter(8);
    w.write('x'.repeat(1000));
    w.reset(16);
    expect(w.length).toBe(0);
    w.write('ab');
    expect(Buffer.from(w.bytes()).toString()).toBe('ab');
  });
});
