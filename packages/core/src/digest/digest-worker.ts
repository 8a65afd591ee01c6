// The digest thread's entry (digest-thread.ts starts it): Weave's digest and canonical size of
// JSON texts, each as JSON.parse reads it, answered in the order asked.
import { parentPort } from 'node:worker_threads';
import { digestBytes } from './digest.ts';
import { withPyJsonBytes } from './py-json.ts';

export interface DigestAsk {
  id: number;
  text: string;
}

export type DigestAnswer = { id: number; digest: string; sizeBytes: number } | { id: number; error: string };

parentPort?.on('message', ({ id, text }: DigestAsk) => {
  let answer: DigestAnswer;
  try {
    const value: unknown = JSON.parse(text);
    answer = { id, ...withPyJsonBytes(value, (bytes) => ({ digest: digestBytes(bytes), sizeBytes: bytes.length })) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
