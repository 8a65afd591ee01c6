import { describe, expect, it } from 'vitest';
import { heapGrowthChosen } from './heap-growth.ts';

describe('heapGrowthChosen', () => {
  it("keeps an operator's own growing factor, from the command line or NODE_OPTIONS", () => {
    expect(heapGrowthChosen(['--heap-growing-percent=80'], undefined)).toBe(true);
    expect(heapGrowthChosen(['--heap_growing_percent=80'], undefined)).toBe(true);
    expect(heapGrowthChosen([], '--max-old-space-size=4096 --heap-growing-percent=10')).toBe(true);
    expect(heapGrowthChosen([], '--heap-growing-percent=10')).toBe(true);
  });

  it('sets Weft’s own otherwise', () => {
    expect(heapGrowthChosen([], undefined)).toBe(false);
    expect(heapGrowthChosen(['--conditions=@weft/source', '--max-old-space-size=4096'], '--enable-source-maps')).toBe(false);
    expect(heapGrowthChosen([], '--no-heap-growing-percent-typo=1 --foo')).toBe(false);
  });
});
