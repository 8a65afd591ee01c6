import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { nativeJsonDisabled } from '../native-json.ts';
import { digestOfValue, valueDigest } from './digest.ts';
import { digestRowsAhead, digestThreadStops, parsedTextDigest } from './digest-thread.ts';
import { JsonText, parseLossless } from './lossless-json.ts';
import { pyJsonDumpsValue } from './py-json.ts';
import { WEAVE_OBJECT_VECTORS } from './weave-vectors.ts';

/** A trajectory-like value of about `mb` MB of JSON: messages with per-token logprobs. */
function bigValue(mb: number, salt: number): unknown {
  const content = [];
  for (let i = 0; content.length * 120 < mb * 1024 * 1024; i++) {
    content.push({
      token: ` t${(i * 7919 + salt) % 10007}`,
      logprob: -((i * 31 + salt) % 997) / 113,
      bytes: [32, 116, 48 + (i % 10)],
      z: 'é\u2028',
    });
  }
  return { messages: [{ role: 'assistant', logprobs: { content } }], reward: 0.5, metrics: { n: 1e21, small: 1e-7, neg: -0 } };
}

describe('parsedTextDigest', () => {
  it("gives Weave's digest of the parsed text, large or small", async () => {
    for (const value of [bigValue(2, 1), bigValue(0.01, 2), { a: [1, 2.5, 'x'] }, []]) {
      const text = JSON.stringify(value);
      const expected = digestOfValue(JSON.parse(text));
      await expect(parsedTextDigest(text)).resolves.toEqual({ digest: expected, sizeBytes: pyJsonDumpsValue(JSON.parse(text)).length });
    }
    // The reference vectors whose numbers JSON.parse keeps as written (no `1.0`).
    for (const v of WEAVE_OBJECT_VECTORS.filter((x) => JSON.stringify(JSON.parse(x.text)) === x.text.replace(/\s/g, ''))) {
      expect((await parsedTextDigest(v.text)).digest).toBe(v.digest);
    }
  });

  it('answers many large texts at once, each with its own digest, in any order awaited', async () => {
    const texts = [0, 1, 2, 3, 4, 5].map((i) => JSON.stringify(bigValue(0.3, i)));
    const answers = await Promise.all(texts.map((t) => parsedTextDigest(t)).reverse());
    expect(answers.reverse().map((a) => a.digest)).toEqual(texts.map((t) => digestOfValue(JSON.parse(t))));
  });

  it('digests a large text off the main thread: the event loop keeps turning meanwhile', async () => {
    const text = JSON.stringify(bigValue(16, 9));
    await parsedTextDigest(JSON.stringify(bigValue(0.1, 0))); // the thread is started
    let turns = 0;
    let done = false;
    const digest = parsedTextDigest(text).finally(() => (done = true));
    while (!done) {
      await nextTurn();
      turns++;
    }
    expect((await digest).digest).toBe(digestOfValue(JSON.parse(text)));
    expect(digestThreadStops()).toBe(0);
    // Digested in place, the call would return only once done, and the loop would not turn.
    expect(turns).toBeGreaterThan(10);
  });

  it('refuses a text that is not JSON', async () => {
    await expect(parsedTextDigest('{"a":' + ' '.repeat(70_000) + '}')).rejects.toThrow();
    await expect(parsedTextDigest('{"a":}')).rejects.toThrow();
    // The thread is still there for the next one.
    const text = JSON.stringify(bigValue(0.2, 3));
    expect((await parsedTextDigest(text)).digest).toBe(digestOfValue(JSON.parse(text)));
  });
});

describe('digestRowsAhead', () => {
  const rows = (n: number, salt: number) =>
    Array.from({ length: n }, (_, i) => new JsonText(`{"i":${i + salt}.0,"s":"é${'x'.repeat(i % 40)}","n":[1E2,-0]}`));

  it.skipIf(nativeJsonDisabled)("sets each row's digest as the lossless tree gives it, off the main thread", async () => {
    const nodes = rows(5000, 0);
    // A row the addon leaves to the tree (Python's NaN) stays unset, and is digested in place.
    nodes[7] = new JsonText('{"a":NaN,"b":1.0}');
    const ahead = digestRowsAhead(nodes);
    expect(nodes[0]!.digested).toBeUndefined(); // answered later, by the thread
    await ahead;
    nodes.forEach((node, i) => {
      if (i === 7) expect(node.digested).toBeUndefined();
      else expect(node.digested).toEqual(valueDigest(parseLossless(node.text)));
    });
    expect(valueDigest(nodes[7])).toEqual(valueDigest(parseLossless(nodes[7].text)));
    expect(digestThreadStops()).toBe(0);
  });

  // Without the addon the thread would do no better than valueDigest in place: nothing is asked.
  it.skipIf(!nativeJsonDisabled)('leaves every row to valueDigest without the addon', async () => {
    const nodes = rows(10, 0);
    await digestRowsAhead(nodes);
    for (const node of nodes) expect(node.digested).toBeUndefined();
  });
});
