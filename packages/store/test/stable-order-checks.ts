// The check every list's stable-order test makes: the same order on several reads, and pages of
// two that put together give that order again (so no row is repeated or skipped across pages).
import { expect } from 'vitest';

type Read<S> = (req: { sort_by: S; limit?: number; offset?: number }) => Promise<Array<string | undefined>>;

export async function expectOneOrder<S>(ids: Read<S>, sort_by: S, expected: Array<string | undefined>): Promise<void> {
  for (let read = 0; read < 3; read++) expect(await ids({ sort_by })).toEqual(expected);
  const pages: Array<string | undefined> = [];
  for (let offset = 0; offset < expected.length; offset += 2) pages.push(...(await ids({ sort_by, limit: 2, offset })));
  expect(pages).toEqual(expected);
}
