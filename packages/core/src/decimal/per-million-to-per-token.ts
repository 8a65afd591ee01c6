import { formatDecimal } from './format-decimal.ts';
import { parseDecimal } from './parse-decimal.ts';

/**
 * Converts a price per million tokens ("0.22", as vendors publish it) to
 * the per-token price the wire format wants ("0.00000022"). Moving the
 * point six places is a textual shift (scale + 6), never a float
 * division, so 0.8 / 1e6 noise like 8.000000000000001e-7 cannot appear.
 */
export function perMillionToPerToken(perMillion: string): string {
  const d = parseDecimal(perMillion);
  return formatDecimal({ coefficient: d.coefficient, scale: d.scale + 6 });
}
