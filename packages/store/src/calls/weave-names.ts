// Weave's Python SDK names a call's run fields `wb_*`, the seed `svc_*`: either is taken, and a
// request naming both with different values is refused rather than one of them dropped.
import { invalidField } from '@weft/core';

export function either<V extends string | number>(
  ours: string,
  a: V | null | undefined,
  theirs: string,
  b: V | null | undefined,
): V | null {
  if (a != null && b != null && a !== b) {
    throw invalidField(
      ['body', theirs],
      `${theirs} (${String(b)}) and ${ours} (${String(a)}) name the same field with different values`,
      'value_error',
    );
  }
  return a ?? b ?? null;
}
