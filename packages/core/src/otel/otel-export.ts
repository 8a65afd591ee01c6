// An OTLP export request → the calls to store, each in its project, with the spans that cannot be
// stored counted and explained instead of failing the batch (OTLP's partial success).
import { invalidRequest } from '../errors.ts';
import { TurnClock } from '../turns.ts';
import { SpanRefusal } from './any-value.ts';
import { spanOf, type OtlpExport } from './decode-protobuf.ts';
import type { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import { spanOrigin, spanToCall, type OtelCall } from './span-to-call.ts';

const PROJECT = /^[^/\s]+\/[^/\s]+$/;

/** `<entity>/<project>`, as the header and the resource attributes must name a project. */
export function isOtlpProjectId(value: string): boolean {
  return PROJECT.test(value) && value.length <= 512;
}
/** At most this many refusals are explained in the answer's message; all are counted. */
const MAX_EXPLAINED = 5;

/**
 * The project of each resource's spans: the `project_id` header when sent, else the resource's
 * `wandb.entity` and `wandb.project` attributes. A resource with spans and neither is a 400.
 */
export function otlpProjects(request: OtlpExport, header: string | undefined): string[] {
  return request.resourceSpans.map((rs, i) => {
    if (header !== undefined) return header;
    const project = resourceProject(rs.resource);
    const hasSpans = rs.scopeSpans.some((ss) => ss.spans.length > 0);
    if (project === undefined && hasSpans) {
      throw invalidRequest(
        `resourceSpans[${i}] names no project: send the header project_id: <entity>/<project>, or the resource attributes wandb.entity and wandb.project`,
      );
    }
    if (project !== undefined && !isOtlpProjectId(project)) {
      throw invalidRequest(
        `resourceSpans[${i}]: wandb.entity/wandb.project is not a project id (<entity>/<project>): ${JSON.stringify(project)}`,
      );
    }
    return project ?? '';
  });
}

function resourceProject(resource: Resource | undefined): string | undefined {
  const get = (key: string) => resource?.attributes.find((kv) => kv.key === key)?.value?.stringValue;
  const entity = get('wandb.entity');
  const project = get('wandb.project');
  return entity !== undefined && project !== undefined ? `${entity}/${project}` : undefined;
}

export interface OtelBatch {
  calls: OtelCall[];
  rejected: number;
  /** Empty when nothing was rejected. */
  message: string;
}

/** A tally as a message can carry it (a mapping thread's, map-thread.ts). */
export interface TallyState {
  rejected: number;
  /** The first few reasons, each with the spans it covers (one reason can cover a whole refused resource). */
  explained: Array<{ reason: string; spans: number }>;
}

/** The spans that could not be stored: all counted, the first few explained. */
export class SpanTally {
  rejected = 0;
  readonly #explained: TallyState['explained'] = [];

  refuse(reason: string, spans = 1): void {
    this.rejected += spans;
    if (this.#explained.length < MAX_EXPLAINED) this.#explained.push({ reason, spans });
  }

  get state(): TallyState {
    return { rejected: this.rejected, explained: [...this.#explained] };
  }

  /** Counts another tally's refusals too. */
  add(other: TallyState): void {
    this.rejected += other.rejected;
    for (const e of other.explained) if (this.#explained.length < MAX_EXPLAINED) this.#explained.push(e);
  }

  /** OTLP's partial-success message; empty when nothing was rejected. */
  get message(): string {
    if (this.rejected === 0) return '';
    const explained = this.#explained.reduce((n, e) => n + e.spans, 0);
    const more = this.rejected > explained ? `; and ${this.rejected - explained} more` : '';
    return `${this.rejected} span(s) not stored: ${this.#explained.map((e) => e.reason).join('; ')}${more}`;
  }
}

/**
 * The calls of an export in chunks of at most `size`, each span decoded (if still bytes) and mapped
 * only when its chunk is due, so a large export is stored without ever holding all of its calls.
 * `projects[i]` is resourceSpans[i]'s project (otlpProjects); refusals go to `tally`.
 */
export async function* otlpCallChunks(
  request: OtlpExport,
  projects: readonly string[],
  tally: SpanTally,
  size: number,
  clock = new TurnClock(),
): AsyncGenerator<OtelCall[]> {
  let chunk: OtelCall[] = [];
  for (const [i, rs] of request.resourceSpans.entries()) {
    for (const ss of rs.scopeSpans) {
      let origin;
      try {
        origin = spanOrigin(rs.resource, ss.scope, { resource: rs.schemaUrl, scope: ss.schemaUrl });
      } catch (err) {
        if (!(err instanceof SpanRefusal)) throw err;
        if (ss.spans.length > 0) tally.refuse(err.message, ss.spans.length);
        continue;
      }
      for (const source of ss.spans) {
        try {
          chunk.push(spanToCall(spanOf(source), origin, projects[i]!));
        } catch (err) {
          if (!(err instanceof SpanRefusal)) throw err;
          tally.refuse(err.message);
        }
        if (chunk.length >= size) {
          yield chunk;
          chunk = [];
        }
        if (clock.due) await clock.pass();
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Every call of an export at once (tests; the store uses otlpCallChunks). */
export async function otlpCalls(request: OtlpExport, projects: readonly string[], clock = new TurnClock()): Promise<OtelBatch> {
  const tally = new SpanTally();
  const calls: OtelCall[] = [];
  for await (const chunk of otlpCallChunks(request, projects, tally, 1000, clock)) calls.push(...chunk);
  return { calls, rejected: tally.rejected, message: tally.message };
}
