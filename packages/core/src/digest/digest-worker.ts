// The digest thread's entry (digest-thread.ts starts it): Weave's digest and canonical size of
// JSON texts, answered in the order asked: a text as JSON.parse reads it, or containers kept as
// text (table rows) as the lossless parse reads them.
import { parentPort } from 'node:worker_threads';
import { DIGEST_CHARS, digestOfLexemeText, digestOfParsedText, type TextDigest } from './digest.ts';

export type DigestAsk = { id: number; text: string } | { id: number; lexemeTexts: string[] };

export type DigestAnswer =
  | ({ id: number } & TextDigest)
  /**
   * One per text, packed (a message of a few objects deserialises much faster than one of
   * thousands): the digests joined (DIGEST_CHARS each), and the canonical sizes, -1 where the
   * addon leaves the text to the lossless tree.
   */
  | { id: number; digests: string; sizes: Int32Array }
  | { id: number; error: string };

function packedDigests(texts: readonly string[]): { digests: string; sizes: Int32Array } {
  let digests = '';
  const sizes = new Int32Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const d = digestOfLexemeText(texts[i]!);
    digests += d ? d.digest : ' '.repeat(DIGEST_CHARS);
    sizes[i] = d ? d.sizeBytes : -1;
  }
  return { digests, sizes };
}

parentPort?.on('message', (ask: DigestAsk) => {
  const { id } = ask;
  let answer: DigestAnswer;
  try {
    answer = 'text' in ask ? { id, ...digestOfParsedText(ask.text) } : { id, ...packedDigests(ask.lexemeTexts) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
