// An OTLP export request → the calls to store, each in its project, with the spans that cannot be
// stored counted and explained instead of failing the batch (OTLP's partial success).
import { invalidRequest } from '../errors.ts';
import { TurnClock } from '../turns.ts';
import { SpanRefusal } from './any-value.ts';
import type { ExportTraceServiceRequest } from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
import type { Resource } from './proto/opentelemetry/proto/resource/v1/resource.generated.ts';
import { spanOrigin, spanToCall, type OtelCall } from './span-to-call.ts';

const PROJECT = /^[^/\s]+\/[^/\s]+$/;
/** At most this many refusals are explained in the answer's message; all are counted. */
const MAX_EXPLAINED = 5;

/**
 * The project of each resource's spans: the `project_id` header when sent, else the resource's
 * `wandb.entity` and `wandb.project` attributes. A resource with spans and neither is a 400.
 */
export function otlpProjects(request: ExportTraceServiceRequest, header: string | undefined): string[] {
  return request.resourceSpans.map((rs, i) => {
    if (header !== undefined) return header;
    const project = resourceProject(rs.resource);
    const hasSpans = rs.scopeSpans.some((ss) => ss.spans.length > 0);
    if (project === undefined && hasSpans) {
      throw invalidRequest(
        `resourceSpans[${i}] names no project: send the header project_id: <entity>/<project>, or the resource attributes wandb.entity and wandb.project`,
      );
    }
    if (project !== undefined && (!PROJECT.test(project) || project.length > 512)) {
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

/** `projects[i]` is resourceSpans[i]'s project (otlpProjects). */
export async function otlpCalls(
  request: ExportTraceServiceRequest,
  projects: readonly string[],
  clock = new TurnClock(),
): Promise<OtelBatch> {
  const calls: OtelCall[] = [];
  const reasons: string[] = [];
  let rejected = 0;
  for (const [i, rs] of request.resourceSpans.entries()) {
    for (const ss of rs.scopeSpans) {
      let origin;
      try {
        origin = spanOrigin(rs.resource, ss.scope);
      } catch (err) {
        if (!(err instanceof SpanRefusal)) throw err;
        rejected += ss.spans.length;
        if (reasons.length < MAX_EXPLAINED) reasons.push(err.message);
        continue;
      }
      for (const span of ss.spans) {
        try {
          calls.push(spanToCall(span, origin, projects[i]!));
        } catch (err) {
          if (!(err instanceof SpanRefusal)) throw err;
          rejected += 1;
          if (reasons.length < MAX_EXPLAINED) reasons.push(err.message);
        }
        if (clock.due) await clock.pass();
      }
    }
  }
  const more = rejected > reasons.length ? `; and ${rejected - reasons.length} more` : '';
  return { calls, rejected, message: rejected === 0 ? '' : `${rejected} span(s) not stored: ${reasons.join('; ')}${more}` };
}
