// The store: one method per operationId of the spec (objsQuery ↔ POST /objs/query ↔ handler
// `objsQuery`). Methods take and return wire types (snake_case) and hold every business rule;
// the HTTP layer only authenticates, authorizes and maps errors. Errors are WeftError values
// from @weft/core's catalogue.
import type { JsonNode } from '@weft/core';
import type * as T from '@weft/types';
import type { ModelLogStreamReq } from './models/model-log-stream.ts';

export interface RequestContext {
  /** Authenticated username; recorded as svc_user_id / created_by. */
  user: string;
  /**
   * The request body parsed losslessly (number lexemes kept), when the HTTP layer has it. Digests
   * are computed from it so `1.0` and `1` hash differently, exactly as in Weave.
   */
  source?: JsonNode;
}

export interface QueueKey {
  project_id: string;
  queue_id: string;
}

export interface Store {
  objCreate(req: T.ObjCreateReq, ctx: RequestContext): Promise<T.ObjCreateRes>;
  objRead(req: T.ObjReadReq, ctx: RequestContext): Promise<T.ObjReadRes>;
  objDelete(req: T.ObjDeleteReq, ctx: RequestContext): Promise<T.ObjDeleteRes>;
  objsQuery(req: T.ObjsQueryReq, ctx: RequestContext): Promise<T.ObjsQueryRes>;

  tableCreate(req: T.TableCreateReq, ctx: RequestContext): Promise<T.TableCreateRes>;
  tableQuery(req: T.TableQueryReq, ctx: RequestContext): Promise<T.TableQueryRes>;

  callStart(req: T.CallStartReq, ctx: RequestContext): Promise<T.CallStartRes>;
  callEnd(req: T.CallEndReq, ctx: RequestContext): Promise<T.Empty>;
  callUpsertBatch(req: T.CallUpsertBatchReq, ctx: RequestContext): Promise<T.CallUpsertBatchRes>;
  callRead(req: T.CallReadReq, ctx: RequestContext): Promise<T.CallReadRes>;
  callUpdate(req: T.CallUpdateReq, ctx: RequestContext): Promise<T.Empty>;
  /** The HTTP layer streams the result as JSON Lines. */
  callsStreamQuery(req: T.CallsStreamQueryReq, ctx: RequestContext): AsyncIterable<T.CallSchema>;

  fileCreate(req: { project_id: string; content: Uint8Array }, ctx: RequestContext): Promise<T.FileCreateRes>;
  /** The stored bytes; notFound when the project has no file with that digest. */
  fileContent(req: T.FileContentReq, ctx: RequestContext): Promise<Uint8Array>;

  feedbackCreate(req: T.FeedbackCreateReq, ctx: RequestContext): Promise<T.FeedbackCreateRes>;

  annotationQueueCreate(req: T.AnnotationQueueCreateReq, ctx: RequestContext): Promise<T.AnnotationQueueCreateRes>;
  /** The HTTP layer streams the result as JSON Lines. */
  annotationQueuesQuery(req: T.AnnotationQueuesQueryReq, ctx: RequestContext): Promise<T.AnnotationQueueSchema[]>;
  annotationQueueRead(req: QueueKey, ctx: RequestContext): Promise<T.AnnotationQueueRes>;
  annotationQueueUpdate(req: QueueKey & T.AnnotationQueueUpdateReq, ctx: RequestContext): Promise<T.AnnotationQueueRes>;
  annotationQueueDelete(req: QueueKey, ctx: RequestContext): Promise<T.AnnotationQueueRes>;

  /** `entity` is already resolved (a null entity means the caller's default) and authorized. */
  modelCreate(req: T.ModelCreateReq & { entity: string }, ctx: RequestContext): Promise<T.ModelSchema>;
  modelRead(req: { model_id: string }, ctx: RequestContext): Promise<T.ModelSchema>;
  modelLog(req: T.ModelLogReq & { model_id: string }, ctx: RequestContext): Promise<T.ModelLogRes>;
  /** modelLog fed piece by piece as the body arrives; atomic: nothing is kept unless the stream ends with `end`. */
  modelLogStream(req: ModelLogStreamReq, ctx: RequestContext): Promise<T.ModelLogRes>;

  /** Database state for GET /health. */
  health(): Promise<T.HealthRes>;
  close(): Promise<void>;
}
