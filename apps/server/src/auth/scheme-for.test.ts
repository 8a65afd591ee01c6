import { describe, expect, it } from 'vitest';
import { schemeFor } from './scheme-for.ts';

describe('schemeFor', () => {
  it('checks a request against the scheme its header names, when the operation offers it', () => {
    expect(schemeFor(['bearer', 'basic'], 'Basic YXBpOmtleQ==')).toBe('basic');
    expect(schemeFor(['bearer', 'basic'], 'bearer weft_key')).toBe('bearer');
  });

  it('falls back to the first scheme for a missing header or one the operation does not offer', () => {
    expect(schemeFor(['bearer', 'basic'], undefined)).toBe('bearer');
    expect(schemeFor(['bearer', 'basic'], 'Digest x')).toBe('bearer');
    expect(schemeFor(['basic'], 'Bearer weft_key')).toBe('basic');
    expect(schemeFor([], 'Bearer weft_key')).toBeUndefined();
  });
});
