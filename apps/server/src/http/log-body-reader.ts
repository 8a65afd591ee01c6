// Reads a trajectory log body (up to LOG_BODY_LIMIT, 64 MB+) and hands the store one validated
// piece at a time: each trajectory, each group after its trajectories, then `end` with the split.
// The bytes are held (see prefetch), but only one trajectory's text and objects at a time.
//
// The observable behaviour is the one express.json + express-openapi-validator give every other
// route, in the same order of precedence: 415 (type, charset, encoding) → 413 over the limit →
// 422 json_invalid → 422 schema problems (all of them, path parameters first). So once a problem
// is found the store is stopped (its transaction rolls back), but the rest of the body is still
// read, without storing, to find the problem that wins and every schema problem.
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import type { ModelLogPiece } from '@weft/store';
import { JsonStreamParser, JsonSyntaxError, type PathKey } from './json-stream-parser.ts';
import { check, logValidators, type ValidatorItem } from './log-body-validator.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The trajectory log body, not yet read (see streamLogBody). */
      logBody?: LogBodyReader;
    }
  }
}

/** Stands in for express.json() on the log route: checks the headers, reads nothing yet. */
export function streamLogBody(limit: number): RequestHandler {
  return (req, _res, next) => {
    try {
      req.logBody = new LogBodyReader(req, limit);
      next();
    } catch (err) {
      next(err);
    }
  };
}

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

/** Checks the headers as body-parser's json() would; throws its 415/413 before any byte is read. */
function openSource(req: Request, limit: number): { source: Readable; charset: string } {
  const contentType = String(req.headers['content-type'] ?? '');
  const [mediaType = '', ...params] = contentType.split(';').map((s) => s.trim());
  if (mediaType.toLowerCase() !== 'application/json') throw httpError(415, 'Unsupported media type');
  const charsetParam = params.find((p) => /^charset=/i.test(p));
  const charset = (charsetParam?.slice('charset='.length).replace(/^"|"$/g, '') ?? 'utf-8').toLowerCase();
  if (!charset.startsWith('utf-')) throw httpError(415, `unsupported charset "${charset.toUpperCase()}"`, 'charset.unsupported');
  const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const inflate = { gzip: createGunzip, deflate: createInflate, br: createBrotliDecompress }[encoding];
  if (!inflate && encoding !== 'identity') throw httpError(415, `unsupported content encoding "${encoding}"`, 'encoding.unsupported');
  const length = Number(req.headers['content-length']);
  if (!inflate && Number.isFinite(length) && length > limit) throw httpError(413, 'request entity too large', 'entity.too.large');
  // pipeline, not pipe: a client abort must reach the inflated stream as an error.
  return { source: inflate ? pipeline(req, inflate(), () => {}) : req, charset };
}

export class LogBodyReader {
  private chunks: AsyncIterator<Buffer>;
  private readonly decoder: TextDecoder;
  private readonly parser: JsonStreamParser;
  private readonly validators = logValidators();
  private readonly pathProblems: ValidatorItem[];
  private readonly pieceProblems: ValidatorItem[] = [];
  private topProblems: ValidatorItem[] = [];
  private queue: ModelLogPiece[] = [];
  private bytes = 0;
  private chars = 0;
  private tooLarge = false;
  private syntaxError: JsonSyntaxError | undefined;
  private finished = false;
  private failure: unknown;
  /** The known top-level values (the schema's properties), or the whole body when not an object. */
  private top: Record<string, unknown> = {};
  private rootValue: unknown;
  private sawGroups = false;
  /** The last trajectory seen, to catch a group with two `trajectories` keys. */
  private last = { g: -1, t: -1 };
  /** Whether pieces are wanted: not while draining, so a refused body is never held whole. */
  private storing = false;

  constructor(
    private readonly req: Request,
    private readonly limit: number,
  ) {
    this.pathProblems = check(this.validators.modelId, String(req.params.model_id), '/params/model_id');
    const { source, charset } = openSource(req, limit);
    this.chunks = source[Symbol.asyncIterator]();
    try {
      this.decoder = new TextDecoder(charset);
    } catch {
      throw httpError(415, `unsupported charset "${charset.toUpperCase()}"`, 'charset.unsupported');
    }
    this.parser = new JsonStreamParser({
      maxDepth: MAX_DEPTH,
      detach: (p) => (p.length === 1 && typeof p[0] === 'string') || isGroup(p) || isTrajectory(p),
      raw: (p) => !(p.length === 1 && p[0] === TG) && !isGroup(p) && !isTrajectories(p),
      onValue: (p, v) => this.onValue(p, v),
    });
  }

  /**
   * Reads the whole body off the network (up to just past the limit) before the store starts.
   * The store's transaction then lasts only as long as parsing and writing: on SQLite, whose one
   * connection every request shares, a slow upload must not hold it. Costs the body's bytes in
   * memory (not its text or parsed objects, which are still made one trajectory at a time).
   */
  async prefetch(): Promise<void> {
    const collected: Buffer[] = [];
    let bytes = 0;
    let failure: unknown;
    try {
      for (;;) {
        const next = await this.chunks.next();
        if (next.done) break;
        collected.push(next.value);
        bytes += next.value.length;
        if (bytes > this.limit) break; // step() answers 413 on the chunk that crosses the limit
      }
    } catch (err) {
      failure = err; // the client went away: step() reports it where it would have
    }
    this.chunks = (async function* () {
      yield* collected;
      if (failure !== undefined) throw failure;
    })();
  }

  /** The client went away mid-body: there is no one to answer. */
  get clientGone(): boolean {
    return this.failure !== undefined;
  }

  /** False once the path or the body so far is known to be invalid. */
  get healthy(): boolean {
    return this.pathProblems.length === 0 && this.pieceProblems.length === 0 && !this.tooLarge && !this.syntaxError && this.failure === undefined;
  }

  /** The store's input: valid pieces while the body is valid; throws as soon as it is not. */
  async *pieces(): AsyncGenerator<ModelLogPiece> {
    this.storing = true;
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift()!;
      if (!this.healthy) throw this.failure ?? new InvalidLogBody('invalid trajectory log body');
      if (this.finished) return;
      await this.step();
    }
  }

  /** Reads what is left (without storing), so that answer() sees the whole body. */
  async drain(): Promise<void> {
    this.storing = false;
    this.queue = [];
    while (!this.finished) await this.step();
    this.queue = [];
  }

  /** The error to answer once drained, if the request itself is at fault (client gone included). */
  answer(): unknown {
    if (this.failure !== undefined) return this.failure;
    if (this.tooLarge) return httpError(413, 'request entity too large', 'entity.too.large');
    if (this.syntaxError) return httpError(400, this.syntaxError.message, 'entity.parse.failed');
    const errors = [...this.pathProblems, ...this.topProblems, ...this.pieceProblems];
    return errors.length > 0 ? Object.assign(httpError(400, 'request validation failed'), { errors }) : undefined;
  }

  private async step(): Promise<void> {
    let next: IteratorResult<Buffer>;
    try {
      next = await this.chunks.next();
    } catch (err) {
      // The client went away (or sent a broken gzip stream): nothing can be answered or stored.
      this.failure = err;
      this.finished = true;
      return;
    }
    if (next.done) return this.finish();
    this.bytes += next.value.length;
    if (this.bytes > this.limit) {
      // Stop reading (as raw-body does) and close the connection after the 413.
      this.tooLarge = true;
      this.finished = true;
      this.req.unpipe?.();
      this.req.pause();
      this.req.res?.setHeader('Connection', 'close');
      return;
    }
    if (!this.syntaxError) this.feed(this.decoder.decode(next.value, { stream: true }));
  }

  private feed(text: string): void {
    try {
      // body-parser's strict mode: the body must be an object or an array.
      if (this.chars === 0 && text.length > 0) {
        const first = /[^ \t\n\r]/.exec(text)?.[0];
        if (first !== undefined && first !== '{' && first !== '[') throw new JsonSyntaxError(`Unexpected token '${first}', the body must be an object or an array`);
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
    if (!this.syntaxError) this.feed(this.decoder.decode());
    if (this.syntaxError) return;
    try {
      // An empty body is `{}` to body-parser (then 422 for the missing fields).
      if (this.chars > 0) this.parser.end();
      else if (this.bytes > 0) throw new JsonSyntaxError('Unexpected end of JSON input');
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
      if (repeated) return this.accept([{ path: `/body/${TG}/${g}/trajectories`, message: 'must not appear twice', errorCode: 'value_error' }]);
      this.accept(check(this.validators.trajectory, value, `/body/${TG}/${g}/trajectories/${t}`), {
        kind: 'trajectory',
        group_index: g,
        trajectory_index: t,
        trajectory: value as Record<string, unknown>,
      });
    } else if (isGroup(path)) {
      const g = path[1] as number;
      this.accept(check(this.validators.group, value, `/body/${TG}/${g}`), { kind: 'group', group_index: g, group: value as Record<string, unknown> });
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
