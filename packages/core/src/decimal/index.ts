export type { Decimal } from './decimal.ts';
export { ZERO } from './decimal.ts';
export { parseDecimal, isPlainDecimalString } from './parse-decimal.ts';
export { formatDecimal } from './format-decimal.ts';
export { add, mul, mulInt } from './arithmetic.ts';
export { perMillionToPerToken } from './per-million-to-per-token.ts';
export { decimalFromNumberLexeme } from './number-lexeme.ts';
