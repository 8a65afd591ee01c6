// The digest thread's entry (digest-thread.ts starts it): Weave's digest and canonical size of
// JSON texts, each as JSON.parse reads it, and when asked the text in jsonb order (text-work.ts),
// answered in the order asked.
import { parentPort } from 'node:worker_threads';
import { textWork, type TextWork } from './text-work.ts';

export interface DigestAsk {
  id: number;
  text: string;
  jsonbText: boolean;
}

export type DigestAnswer = ({ id: number } & TextWork) | { id: number; error: string };

parentPort?.on('message', ({ id, text, jsonbText }: DigestAsk) => {
  let answer: DigestAnswer;
  try {
    answer = { id, ...textWork(text, jsonbText) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
