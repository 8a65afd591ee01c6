// Weave's digest of a JSON text, computed on a thread of its own when the text is large.
//
// The canonical dump (Python's json.dumps with sorted keys) and its sha256 were a third of the
// trajectory log's time on the one thread that also parses the body and runs SQLite's statements
// (BENCHMARKS.md, scenario 4). The text to store is already at hand there, as JSON.stringify wrote
// it, so this thread digests it (natively, @weft/json-native, when built) while the main thread
// goes on with the next trajectory. One thread per process, started on first use; small texts are
// digested in place (a message costs more than their dump). Whatever a thread that stops was
// asked is answered in place, and the next ask starts a new one; after three threads every
// digest is computed in place: same answers, only slower.
import { ThreadSlot } from '../thread-slot.ts';
import { workerOf } from '../worker-of.ts';
import type { DigestAnswer, DigestAsk } from './digest-worker.ts';
import { digestOfParsedText, type TextDigest } from './digest.ts';

/** Below this many characters a text is digested in place. */
const IN_PLACE_MAX_CHARS = 64 * 1024;

/** Weave's digest of the value JSON.parse reads from `text` (which must be valid JSON). */
export function parsedTextDigest(text: string): Promise<TextDigest> {
  const thread = text.length > IN_PLACE_MAX_CHARS ? slot.get() : undefined;
  if (thread) return thread.ask(text);
  return new Promise((resolve) => resolve(digestOfParsedText(text)));
}

interface DigestThread {
  ask(text: string): Promise<TextDigest>;
}

// Its values live only while one text is dumped: a small young generation is enough, and keeps
// the thread's share of the process's memory small (BENCHMARKS.md, scenario 6).
const YOUNG_GENERATION_MB = 8;

const slot = new ThreadSlot(startThread);

/** How many digest threads failed to start or stopped: 0 in a healthy process. */
export function digestThreadStops(): number {
  return slot.counts.stops;
}

function startThread(): DigestThread {
  const worker = workerOf(new URL(import.meta.url), 'digest-worker', { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB });
  const waiting = new Map<number, { resolve: (d: TextDigest) => void; reject: (e: Error) => void; text: string }>();
  let next = 0;
  // Only while answers are awaited does the thread keep the process alive.
  worker.unref();
  worker.on('message', (answer: DigestAnswer) => {
    const ask = waiting.get(answer.id);
    if (!ask) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if ('error' in answer) ask.reject(new Error(answer.error));
    else {
      const { id: _, ...work } = answer;
      ask.resolve(work);
    }
  });
  const stop = () => {
    if (!slot.stopped(self)) return;
    for (const ask of waiting.values()) {
      try {
        ask.resolve(digestOfParsedText(ask.text));
      } catch (err) {
        ask.reject(err as Error);
      }
    }
    waiting.clear();
  };
  worker.on('error', stop);
  worker.on('exit', stop);
  const self: DigestThread = {
    ask(text) {
      const id = next++;
      return new Promise<TextDigest>((resolve, reject) => {
        waiting.set(id, { resolve, reject, text });
        worker.ref();
        worker.postMessage({ id, text } satisfies DigestAsk);
      });
    },
  };
  return self;
}
