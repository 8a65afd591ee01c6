// The store's interface, derived from the spec: one method per operationId (objsQuery ↔
// POST /objs/query ↔ handler `objsQuery`), taking the operation's body, path and query parameters
// as one snake_case object and returning its 200 answer. Declared nowhere else: create-store.ts
// wires each method to its implementation and the compiler checks both against this map.
// Methods hold every business rule; errors are WeftError values from @weft/core's catalogue.
import type { JsonNode, OtlpExport } from '@weft/core';
import type * as T from '@weft/types';
import type {
  AuthOf,
  BodyModeOf,
  OperationId,
  PathParamsOf,
  QueryParamsOf,
  RequestBodyOf,
  SuccessBodyOf,
  SuccessMediaTypeOf,
} from '@weft/types';

/** Operations answered without the store (the server's version and liveness, the router catalogue, its metrics, W&B's GraphQL; training is not offered). */
export type StorelessOperationId =
  | 'serverInfo'
  | 'routerModelsList'
  | 'routerChatCompletionsCreate'
  | 'routerEmbeddingsCreate'
  | 'routerEndpointsList'
  | 'trainingJobCreate'
  | 'metrics'
  | 'graphqlQuery'
  | 'live';
/** Another client's path for an operation (the Weave Python SDK's plural ones): same handler, same store method. */
export type AliasOperationId = 'filesCreate' | 'filesContent';
export type StoreOperationId = Exclude<OperationId, StorelessOperationId | AliasOperationId>;

export interface RequestContext {
  /** Authenticated username; recorded as svc_user_id / created_by. */
  user: string;
}

/**
 * For operations whose body is read losslessly (x-weft-body: lossless): the body's tree with its
 * number lexemes kept. Digests are computed from it so `1.0` and `1` hash differently, as in Weave.
 * Required by type, so a handler cannot forget it.
 */
export interface LosslessContext extends RequestContext {
  /** `undefined` only for a direct store user's plain JS value, which has no lexemes to keep. */
  source: JsonNode | undefined;
}

/**
 * For operations that follow refs named in stored values (an object's table ref, a call input's
 * object ref): which projects the caller may read. Every hop of every ref is checked against it,
 * so a value written in one tenant's project never reads another's. The store knows nothing of
 * users and entities: the server derives it from its authorization (a direct store user, such as
 * a test, passes its own). Required by type, so a handler cannot forget it.
 */
export interface ReadingContext extends RequestContext {
  mayRead(projectId: string): boolean;
}

// The inputs of InputOverrides are declared here, not beside their methods, so this file imports
// nothing from the resource folders (they import it): no cycle, not even of types.

type Json = Record<string, unknown>;

/** One validated piece of a log body, in document order (models/model-log.ts). */
export type ModelLogPiece =
  | { kind: 'trajectory'; group_index: number; trajectory_index: number; trajectory: Json }
  /** A group after all its trajectories, without them. */
  | { kind: 'group'; group_index: number; group: Json }
  /** The request's split: the body was complete and valid. Nothing may follow. */
  | { kind: 'end'; split: string };

export interface OtelExportInput {
  request: OtlpExport;
  /** The project of each resourceSpans (otlpProjects), authorized by the caller. */
  projects: string[];
}

export interface ProjectsListInput {
  limit?: number;
  /** The entities the caller may access, or 'all' (a key for every entity). */
  entities: readonly string[] | 'all';
}

export type EvalResultsQueryInput = T.EvalResultsQueryReq & { project_id: string };

/** Where a store method takes something else than the operation's body, path and query. */
interface InputOverrides {
  /** `entity` already resolved (ART's null entity is the caller's default) and authorized. */
  modelCreate: T.ModelCreateReq & { entity: string };
  /** The body arrives as validated pieces, one trajectory at a time (x-weft-body: stream). */
  modelLog: { model_id: string; pieces: AsyncIterable<ModelLogPiece> };
  /** The multipart `file` part's bytes (x-weft-body: multipart). */
  fileCreate: { project_id: string; content: Uint8Array; expected_digest?: string | null | undefined };
  /** The decoded OTLP export and each resource's project, authorized (x-weft-body: bytes). */
  otelExport: OtelExportInput;
  /** The entities the caller may access, resolved by the server's auth. */
  projectsList: ProjectsListInput;
  /** The path's entity and project joined into the project id (`<entity>/<project>`), authorized. */
  evalResultsQuery: EvalResultsQueryInput;
}

/** Operations whose context carries more than the caller (see ReadingContext). */
interface ContextOverrides {
  refsReadBatch: ReadingContext;
  /** `expand_columns` follows the refs of the calls it answers. */
  callsStreamQuery: ReadingContext;
  callsQuery: ReadingContext;
  /** resolve_row_refs reads the dataset rows the examples name. */
  evalResultsQuery: ReadingContext;
}

type Merge<A> = { [P in keyof A]: A[P] };
type BodyPart<K extends OperationId> = [RequestBodyOf<K>] extends [never] ? Record<never, never> : RequestBodyOf<K>;

export type StoreInput<K extends StoreOperationId> = K extends keyof InputOverrides
  ? InputOverrides[K]
  : Merge<BodyPart<K> & PathParamsOf<K> & QueryParamsOf<K>>;

export type StoreContext<K extends StoreOperationId> = K extends keyof ContextOverrides
  ? ContextOverrides[K]
  : AuthOf<K> extends 'none'
    ? Record<never, never>
    : BodyModeOf<K> extends 'lossless'
      ? LosslessContext
      : RequestContext;

/** JSON Lines answers are streamed (or a bounded list); binary answers are bytes; the rest one JSON value. */
export type StoreOutput<K extends StoreOperationId> =
  SuccessMediaTypeOf<K> extends 'application/jsonl'
    ? AsyncIterable<SuccessBodyOf<K>> | Promise<SuccessBodyOf<K>[]>
    : SuccessMediaTypeOf<K> extends 'application/octet-stream'
      ? Promise<Uint8Array>
      : Promise<SuccessBodyOf<K>>;

export type StoreMethod<K extends StoreOperationId> = (req: StoreInput<K>, ctx: StoreContext<K>) => StoreOutput<K>;

export type Store = { [K in StoreOperationId]: StoreMethod<K> } & {
  close(): Promise<void>;
};

/**
 * Types one resource's methods by Store without listing their names again: each method's
 * parameters and answer come from the spec through Store.
 */
export function storeMethods<M extends Partial<Store>>(methods: M): { [K in keyof M & keyof Store]: Store[K] } {
  return methods as { [K in keyof M & keyof Store]: Store[K] };
}

/** The key of one annotation queue (path `queue_id`, query `project_id`). */
export type QueueKey = StoreInput<'annotationQueueRead'>;
