/**
 * Python's `repr(float)` as `json.dumps` writes it.
 *
 * Both Python and JS pick the shortest digit string that round-trips (ties
 * going to the one closest to the exact value), so only the layout differs:
 * Python switches to exponent form when the decimal exponent is < -4 or >= 16
 * (JS: < -7 or >= 21), pads the exponent to two digits with a sign (`1e-05`,
 * `1e+16`), and keeps `.0` on integral values. Non-finite values use the bare
 * names `json.dumps` emits with its default allow_nan=True.
 */
export function pyFloatRepr(x: number): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';

  const ax = x < 0 ? -x : x;
  // In Python's fixed-notation range JS also prints fixed notation with the
  // same digits. The bounds are safe as doubles: 1e16 is exact, and no double
  // below the double nearest 1e-4 can print with a decimal exponent of -4.
  if (ax >= 1e-4 && ax < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? s + '.0' : s;
  }

  // toExponential() with no argument gives the shortest round-trip digits.
  const e = x.toExponential();
  const at = e.indexOf('e');
  const mantissa = e.slice(0, at);
  const sign = e[at + 1]; // toExponential always writes '+' or '-'
  const digits = e.slice(at + 2);
  return mantissa + 'e' + sign + (digits.length < 2 ? '0' + digits : digits);
}
