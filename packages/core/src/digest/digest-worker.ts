// The digest thread's entry (digest-thread.ts starts it): Weave's digest and canonical size of
// JSON texts, each as JSON.parse reads it, answered in the order asked.
import { parentPort } from 'node:worker_threads';
import { digestOfParsedText, type TextDigest } from './digest.ts';

export interface DigestAsk {
  id: number;
  text: string;
}

export type DigestAnswer = ({ id: number } & TextDigest) | { id: number; error: string };

parentPort?.on('message', ({ id, text }: DigestAsk) => {
  let answer: DigestAnswer;
  try {
    answer = { id, ...digestOfParsedText(text) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
