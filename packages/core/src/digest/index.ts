export {
  JsonNumber,
  JsonText,
  JsonParseError,
  JSON_MAX_DEPTH,
  jsonNumberOf,
  newJsonObject,
  parseLossless,
  type JsonNode,
  type JsonObject,
} from './lossless-json.ts';
export { toPlain } from './to-plain.ts';
export { pyFloatRepr } from './py-float.ts';
export { pyQuote } from './py-quote.ts';
export { compareCodePoints, sortByCodePoint } from './sorted-keys.ts';
export { pyJsonDumps, pyJsonDumpsValue, withPyJsonBytes } from './py-json.ts';
export { digestBytes, digestJsonText, digestOfValue, objectDigest, rowDigest, tableDigest, valueDigest } from './digest.ts';
export { digestRowsAhead, digestThreadStops, parsedTextDigest } from './digest-thread.ts';
export type { TextDigest } from './digest.ts';
