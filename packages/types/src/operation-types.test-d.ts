// Type tests: the per-operation views resolve to the spec's schemas.
import { expectTypeOf, test } from 'vitest';
import type {
  AnnotationQueueRes,
  BodyModeOf,
  CallSchema,
  ObjCreateReq,
  ObjCreateRes,
  OperationId,
  PathParamsOf,
  QueryParamsOf,
  RequestBodyOf,
  SuccessBodyOf,
  SuccessMediaTypeOf,
} from './index.ts';

test('body, params and answer of an operation come from the spec', () => {
  expectTypeOf<RequestBodyOf<'objCreate'>>().toEqualTypeOf<ObjCreateReq>();
  expectTypeOf<SuccessBodyOf<'objCreate'>>().toEqualTypeOf<ObjCreateRes>();
  expectTypeOf<BodyModeOf<'objCreate'>>().toEqualTypeOf<'lossless'>();
  expectTypeOf<BodyModeOf<'health'>>().toEqualTypeOf<'none'>();
  expectTypeOf<PathParamsOf<'annotationQueueRead'>>().toEqualTypeOf<{ queue_id: string }>();
  expectTypeOf<QueryParamsOf<'annotationQueueRead'>>().toEqualTypeOf<{ project_id: string }>();
  expectTypeOf<SuccessBodyOf<'annotationQueueRead'>>().toEqualTypeOf<AnnotationQueueRes>();
  expectTypeOf<SuccessMediaTypeOf<'callsStreamQuery'>>().toEqualTypeOf<'application/jsonl'>();
  expectTypeOf<SuccessBodyOf<'callsStreamQuery'>>().toEqualTypeOf<CallSchema>();
});

test('an operationId not in the spec is not an OperationId', () => {
  // @ts-expect-error: no such operation
  const id: OperationId = 'objUpsert';
  void id;
});
