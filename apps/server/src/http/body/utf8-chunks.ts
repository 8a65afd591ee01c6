// The UTF-8 text of a body read a chunk at a time: a character cut between two chunks is joined,
// and a leading byte-order mark is dropped (as bodyText does for a body read whole).
//
// Node's StringDecoder, not TextDecoder's streaming mode: TextDecoder decodes a stream through ICU
// into UTF-16, so each MB of ASCII became a 2 MB string held outside V8's heap, and every string
// cut from it (a trajectory's text) was two-byte as well: twice the memory of the log's text, and
// a slower JSON.parse (BENCHMARKS.md, scenario 6). StringDecoder makes the same one-byte strings
// as Buffer#toString, with the same replacement of invalid bytes (U+FFFD).
import { StringDecoder } from 'node:string_decoder';

export class Utf8Chunks {
  private readonly decoder = new StringDecoder('utf8');
  private started = false;

  /** The text of `bytes`, except a character whose last bytes are still to come. */
  write(bytes: Buffer): string {
    return this.dropBom(this.decoder.write(bytes));
  }

  /** What is left: the replacement character for a character cut short by the end. */
  end(): string {
    return this.dropBom(this.decoder.end());
  }

  private dropBom(text: string): string {
    if (this.started || text.length === 0) return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}
