// Weave's digest test vectors (computed by CPython's json + hashlib, as W&B
// Weave's trace server does). One copy, used by the tests of core, store and server alike.

export interface WeaveVector {
  /** The value as JSON text, exactly as a client sends it (number lexemes matter). */
  text: string;
  /** Python's `json.dumps(value, sort_keys=True)`. */
  canonical: string;
  digest: string;
}

export const WEAVE_OBJECT_VECTORS: readonly WeaveVector[] = [
  { text: '{"b":1,"a":"x"}', canonical: '{"a": "x", "b": 1}', digest: 'OFgg8Alv1Vj0CRMZ5Yp0LOv4d9w7rKGAmBiJ8cQOyoQ' },
  { text: '{"a":1.0}', canonical: '{"a": 1.0}', digest: 'dCYJsgfwkAqOLf866DrEeUGvXCm7brXylYTKfdY9g1Q' },
  { text: '{"a":1}', canonical: '{"a": 1}', digest: 'XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA' },
  { text: '{"k":"é"}', canonical: '{"k": "\\u00e9"}', digest: 'zZjU1kzUeU30twHX86DnQMD03UIkKKG3dPt4I1OeKsc' },
  { text: '[1, 2, 3]', canonical: '[1, 2, 3]', digest: 'o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM' },
  { text: '"hello"', canonical: '"hello"', digest: 'WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno' },
  { text: 'null', canonical: 'null', digest: 'dCNOmKYnSYX12vHzasLXiswzlGT5UHA7jAGYkvmCuQs' },
  { text: '{}', canonical: '{}', digest: 'RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o' },
  { text: '{"x":true,"y":false}', canonical: '{"x": true, "y": false}', digest: 'geYJQqnHhVssZOL4AysdAqn1R2jn7svzAGCiYR3kEJU' },
  { text: '{"a":1e16}', canonical: '{"a": 1e+16}', digest: '33KyRZekSVr5zBb3k1flmiTAN1j7KnYX1IyXUMCPmq8' },
  { text: '{"a":0.00001}', canonical: '{"a": 1e-05}', digest: 'FkmllZIrNMHvpeH2Lriq39yt0D9lscv24syuqnj4s08' },
  { text: '{"a":0.1}', canonical: '{"a": 0.1}', digest: 'Z0eawCmMsXoPHp9YHeUfpNkVyRjLBFAYRfJsXSrAXnw' },
  { text: '{"n":1e15}', canonical: '{"n": 1000000000000000.0}', digest: 'cBXeqVGpNAcnYi2i4yZXK5B5CUNswajvDkXnzMpP8mo' },
  { text: '{"e":"😀"}', canonical: '{"e": "\\ud83d\\ude00"}', digest: 'kIDRtSBirLECtD09UlZ07ctcYnfyyYWJYsWg1Fpgs9w' },
];

/** Rows `[{"a":1},{"a":2}]`: their row digests and the table digest. */
export const WEAVE_TABLE_VECTOR = {
  rowsText: '[{"a": 1}, {"a": 2}]',
  rowDigests: ['XdhgKMbg1k4iUYb5astpM4ssWXZN95FiEH9cS7NNExA', '5anVsDAOD1DTcuWp3fokIIqsmpQM6aNvJHOHIhriBf4'],
  digest: '1c95cdc46a75d6e7e971986a80adfcd676dd22f2222a3405c7743f3db8df6785',
} as const;

/** A table of no rows: the sha256 of "". */
export const WEAVE_EMPTY_TABLE_DIGEST = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
