// Weave's digest of a JSON text, computed on a thread of its own when the text is large, and of
// a large body's table rows while the body is still being read.
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
import { DIGEST_CHARS, digestOfParsedText, type TextDigest } from './digest.ts';
import type { JsonText } from './lossless-json.ts';
import { nativeJson } from '../native-json.ts';

/** Below this many characters a text is digested in place. */
const IN_PLACE_MAX_CHARS = 64 * 1024;

/** Weave's digest of the value JSON.parse reads from `text` (which must be valid JSON). */
export function parsedTextDigest(text: string): Promise<TextDigest> {
  const thread = text.length > IN_PLACE_MAX_CHARS ? slot.get() : undefined;
  if (thread) return thread.ask({ text }, () => digestOfParsedText(text));
  return new Promise((resolve) => resolve(digestOfParsedText(text)));
}

/**
 * Digests containers kept as text (a large body's table rows) on the thread while the caller goes
 * on, each as the lossless parse reads it: sets each one's `digested` when the answer comes, and
 * resolves then (never rejects). Only with the addon (the thread would do no better than the
 * caller's own tree); whatever is left unset, by the addon or a thread that stops, valueDigest
 * computes in place when asked.
 */
export function digestRowsAhead(nodes: readonly JsonText[]): Promise<void> {
  const thread = nativeJson && nodes.length > 0 ? slot.get() : undefined;
  if (!thread) return Promise.resolve();
  return thread
    .ask<Packed | undefined>({ lexemeTexts: nodes.map((n) => n.text) }, () => undefined)
    .then(
      (packed) => {
        if (!packed) return;
        const { digests, sizes } = packed;
        for (let i = 0; i < sizes.length; i++) {
          if (sizes[i]! >= 0)
            nodes[i]!.digested = { digest: digests.slice(i * DIGEST_CHARS, (i + 1) * DIGEST_CHARS), sizeBytes: sizes[i]! };
        }
      },
      () => undefined,
    );
}

type Packed = { digests: string; sizes: Int32Array };

interface DigestThread {
  /** `inPlace`: the answer, if the thread stops first. */
  ask<T>(message: DistributiveOmit<DigestAsk, 'id'>, inPlace: () => T): Promise<T>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
  const waiting = new Map<number, { resolve: (answer: unknown) => void; reject: (e: Error) => void; inPlace: () => unknown }>();
  let next = 0;
  // Only while answers are awaited does the thread keep the process alive.
  worker.unref();
  worker.on('message', (answer: DigestAnswer) => {
    const ask = waiting.get(answer.id);
    if (!ask) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if ('error' in answer) ask.reject(new Error(answer.error));
    else if ('sizes' in answer) ask.resolve({ digests: answer.digests, sizes: answer.sizes });
    else ask.resolve({ digest: answer.digest, sizeBytes: answer.sizeBytes });
  });
  const stop = () => {
    if (!slot.stopped(self)) return;
    for (const ask of waiting.values()) {
      try {
        ask.resolve(ask.inPlace());
      } catch (err) {
        ask.reject(err as Error);
      }
    }
    waiting.clear();
  };
  worker.on('error', stop);
  worker.on('exit', stop);
  const self: DigestThread = {
    ask<T>(message: DistributiveOmit<DigestAsk, 'id'>, inPlace: () => T) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (answer: unknown) => void, reject, inPlace });
        worker.ref();
        worker.postMessage({ id, ...message });
      });
    },
  };
  return self;
}
