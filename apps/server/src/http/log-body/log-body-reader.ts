// Parses a trajectory log body (up to LOG_BODY_LIMIT, 64 MB+; already read, inflated and limited
// by the body module, and spooled to a file past its first MB) and hands the store one validated
// piece at a time: each trajectory, each group after its trajectories, then `end` with the split.
// Only one trajectory's text and objects, and about a MB of the body's bytes, are held at a time.
//
// The observable behaviour is the one every other route gives, in the same order of precedence:
// 422 json_invalid → 422 schema problems (all of them, path parameters first). So once a problem
// is found the store is stopped (its transaction rolls back), but the rest of the body is still
// parsed, without storing, to find every schema problem.
import { nativeJson } from '@weft/core';
import type { ModelLogPiece } from '@weft/store';
import type { SpooledBody } from '../body/spooled-body.ts';
import { JsonStreamParser, JsonSyntaxError, type PathKey } from '../body/json-stream-parser.ts';
import { refuseInexactNumbers, refuseUnstorableText } from '../body/parse-json.ts';
import { Utf8Chunks } from '../body/utf8-chunks.ts';
import { check, logValidators, type ValidatorItem } from './validate-pieces.ts';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Thrown into the store's loop when the body turns out invalid: the store rolls back. */
export class InvalidLogBody extends Error {}

/** Deep enough for any chat message; bounds the work a hostile body can cause. */
const MAX_DEPTH = 512;

const TG = 'trajectory_groups';
const isGroup = (p: readonly PathKey[]) => p.length === 2 && p[0] === TG && typeof p[1] === 'number';
const isTrajectories = (p: readonly PathKey[]) => p.length === 3 && isGroup(p.slice(0, 2)) && p[2] === 'trajectories';
const isTrajectory = (p: readonly PathKey[]) => p.length === 4 && isTrajectories(p.slice(0, 3)) && typeof p[3] === 'number';

function httpError(status: number, message: string, type?: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true });
}

/** About this many bytes are decoded and parsed per turn of the event loop. */
const TURN_BYTES = 1 << 20;

export class LogBodyReader {
  /** The body's chunks, read as they are parsed (the next one is only asked for once parsed). */
  private readonly chunks: AsyncIterator<Buffer>;
  private readonly decoder = new Utf8Chunks();
  private readonly parser: JsonStreamParser;
  private readonly validators = logValidators();
  private readonly pathProblems: ValidatorItem[];
  private readonly pieceProblems: ValidatorItem[] = [];
  private topProblems: ValidatorItem[] = [];
  private queue: ModelLogPiece[] = [];
  private chars = 0;
  private syntaxError: JsonSyntaxError | undefined;
  /** A value no route stores (U+0000, a lone surrogate, a number that would change): answered first. */
  private refusal: unknown;
  private finished = false;
  private readFailure: { err: unknown } | undefined;
  /** The known top-level values (the schema's properties), or the whole body when not an object. */
  private top: Record<string, unknown> = {};
  private rootValue: unknown;
  private sawGroups = false;
  /** The last trajectory seen, to catch a group with two `trajectories` keys. */
  private last = { g: -1, t: -1 };
  /** Whether pieces are wanted: not while draining, so a refused body is never held whole. */
  private storing = false;

  private readonly size: number;

  constructor(body: Pick<SpooledBody, 'size' | 'chunks'>, modelId: string) {
    this.pathProblems = check(this.validators.modelId, modelId, '/params/model_id');
    this.size = body.size;
    this.chunks = body.chunks()[Symbol.asyncIterator]();
    this.parser = new JsonStreamParser({
      maxDepth: MAX_DEPTH,
      scanContainer: nativeJson?.scanContainer,
      detach: (p) => (p.length === 1 && typeof p[0] === 'string') || isGroup(p) || isTrajectory(p),
      raw: (p) => !(p.length === 1 && p[0] === TG) && !isGroup(p) && !isTrajectories(p),
      onValue: (p, v) => this.onValue(p, v),
      // The same rules as every JSON body (body/parse-json.ts), applied to each piece's text.
      inspect: (text) => {
        if (this.refusal !== undefined) return;
        try {
          refuseInexactNumbers(text);
          refuseUnstorableText(text);
        } catch (err) {
          this.refusal = err;
          this.queue = [];
        }
      },
    });
  }

  /** False once the path or the body so far is known to be invalid. */
  get healthy(): boolean {
    return this.pathProblems.length === 0 && this.pieceProblems.length === 0 && !this.syntaxError && this.refusal === undefined;
  }

  /** The store's input: valid pieces while the body is valid; throws as soon as it is not. */
  async *pieces(): AsyncGenerator<ModelLogPiece> {
    this.storing = true;
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift()!;
      if (!this.healthy) throw new InvalidLogBody('invalid trajectory log body');
      if (this.finished) return;
      await this.step();
      // One chunk at a time, so other requests get the event loop between chunks.
      await nextTurn();
    }
  }

  /** Parses what is left (without storing), so that answer() sees the whole body. */
  async drain(): Promise<void> {
    this.storing = false;
    this.queue = [];
    while (!this.finished) {
      await this.step();
      await nextTurn();
    }
    this.queue = [];
  }

  /** The error to answer once drained, if the body is at fault. */
  answer(): unknown {
    if (this.readFailure) return this.readFailure.err;
    if (this.syntaxError) return httpError(400, this.syntaxError.message, 'entity.parse.failed');
    if (this.refusal !== undefined) return this.refusal;
    const errors = [...this.pathProblems, ...this.topProblems, ...this.pieceProblems];
    return errors.length > 0 ? Object.assign(httpError(400, 'request validation failed'), { errors }) : undefined;
  }

  private async step(): Promise<void> {
    for (let bytes = 0; bytes < TURN_BYTES;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await this.chunks.next();
      } catch (err) {
        // The body could not be read back (its file): nothing about it is known, so this is the answer.
        this.finished = true;
        this.readFailure = { err };
        throw err;
      }
      if (next.done) return this.finish();
      bytes += next.value.length;
      // Decoded at once: the chunk's buffer is reused for the next read.
      if (!this.syntaxError) this.feed(this.decoder.write(next.value));
    }
  }

  private feed(text: string): void {
    try {
      // body-parser's strict mode: the body must be an object or an array.
      if (this.chars === 0 && text.length > 0) {
        const first = /[^ \t\n\r]/.exec(text)?.[0];
        if (first !== undefined && first !== '{' && first !== '[')
          throw new JsonSyntaxError(`Unexpected token '${first}', the body must be an object or an array`);
        if (first === undefined) return; // leading whitespace only, so far
      }
      this.chars += text.length;
      this.parser.write(text);
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      this.syntaxError = err;
      this.queue = [];
    }
  }

  private finish(): void {
    this.finished = true;
    if (!this.syntaxError) this.feed(this.decoder.end());
    if (this.syntaxError) return;
    try {
      // An empty body is `{}` to body-parser (then 422 for the missing fields).
      if (this.chars > 0) this.parser.end();
      else if (this.size > 0) throw new JsonSyntaxError('Unexpected end of JSON input');
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      this.syntaxError = err;
      this.queue = [];
      return;
    }
    const body = this.rootValue === undefined || isPlainObject(this.rootValue) ? this.top : this.rootValue;
    this.topProblems = check(this.validators.request, body, '/body');
    if (this.storing && this.healthy && this.topProblems.length === 0) this.queue.push({ kind: 'end', split: this.top.split as string });
  }

  private onValue(path: readonly PathKey[], value: unknown): void {
    if (path.length === 0) {
      this.rootValue = value;
    } else if (isTrajectory(path)) {
      const [, g, , t] = path as [string, number, string, number];
      // JSON.parse would keep only a repeated key's last value; the first is already stored.
      const repeated = g === this.last.g && t !== this.last.t + 1;
      this.last = { g, t };
      if (repeated)
        return this.accept([{ path: `/body/${TG}/${g}/trajectories`, message: 'must not appear twice', errorCode: 'value_error' }]);
      this.accept(check(this.validators.trajectory, value, `/body/${TG}/${g}/trajectories/${t}`), {
        kind: 'trajectory',
        group_index: g,
        trajectory_index: t,
        trajectory: value as Record<string, unknown>,
      });
    } else if (isGroup(path)) {
      const g = path[1] as number;
      this.accept(check(this.validators.group, value, `/body/${TG}/${g}`), {
        kind: 'group',
        group_index: g,
        group: value as Record<string, unknown>,
      });
    } else if (path[0] === TG) {
      // A second trajectory_groups key: JSON.parse would keep the last, but the first is already
      // on its way to the store. Refuse rather than store something else than was meant.
      if (this.sawGroups) this.accept([{ path: `/body/${TG}`, message: 'must not appear twice', errorCode: 'value_error' }]);
      this.sawGroups = true;
      // Its groups were handed over one by one: what is left is [] (or a non-array to report).
      this.top[TG] = value;
    } else if (this.validators.requestKeys.includes(String(path[0]))) {
      this.top[String(path[0])] = value;
    }
  }

  private accept(problems: ValidatorItem[], piece?: ModelLogPiece): void {
    if (problems.length > 0) {
      this.pieceProblems.push(...problems);
      this.queue = [];
    } else if (piece && this.storing && this.healthy) this.queue.push(piece);
  }
}

function isPlainObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
