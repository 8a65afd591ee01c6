// Random JSON values for differential tests (the native JSON functions against their references).

/**
 * Strings that escape or sort differently in Python, JSON.stringify and jsonb: quotes, controls,
 * DEL, non-ASCII of each UTF-8 length, and an astral character (after U+E000–U+FFFF by code point,
 * before them in UTF-16 order).
 */
export const TRICKY_STRINGS = [
  '',
  'plain',
  'q"uote',
  'back\\slash',
  '\n\r\t\b\f',
  '\u0001\u001f',
  '\u007f',
  'é',
  '€',
  '😀',
  '\u2028',
  '/',
  '\uffff',
];

/** Random JSON values: keys and strings from TRICKY_STRINGS and random text, numbers of every magnitude. */
export function randomJsonValue(random: () => number, depth = 0): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const text = () =>
    random() < 0.5
      ? pick(TRICKY_STRINGS)
      : String.fromCharCode(...Array.from({ length: Math.floor(random() * 6) }, () => Math.floor(random() * 0x2fff)));
  const kind = depth > 4 ? Math.floor(random() * 4) : Math.floor(random() * 6);
  switch (kind) {
    case 0: {
      const bits = new DataView(new ArrayBuffer(8));
      bits.setUint32(0, Math.floor(random() * 2 ** 32));
      bits.setUint32(4, Math.floor(random() * 2 ** 32));
      const x = bits.getFloat64(0);
      return Number.isFinite(x) ? x : 0;
    }
    case 1:
      return pick([
        Math.floor(random() * 1000),
        (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20),
        Math.round(random() * 2 ** 60),
        -0,
      ]);
    case 2:
      return text();
    case 3:
      return pick([true, false, null]);
    case 4:
      return Array.from({ length: Math.floor(random() * 5) }, () => randomJsonValue(random, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 6); i > 0; i--) o[text()] = randomJsonValue(random, depth + 1);
      return o;
    }
  }
}
