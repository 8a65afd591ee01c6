// Type-level tests: checked by `tsc -p .` (the tsconfig includes src/) and by vitest's typecheck
// mode. Each `@ts-expect-error` fails the check if the line below it compiles, and each has a
// compiling twin, so the error is the one named and not some other mistake on the line.
import { describe, expectTypeOf, test } from 'vitest';
import type {
  AnnotationQueueRes,
  AnnotationQueueSchema,
  AnnotationQueuesQueryRes,
  CallEndReq,
  CallSchema,
  ErrorReason,
  FileCreateRes,
  ModelSchema,
  ObjsQueryRes,
  RouterModelsRes,
  ValidationError,
} from '@weft/types';
import { createClient, type ErrorBody, type WeftApiError, type WeftErrorBody } from './index.ts';

// Never called: type tests are compiled, not run.
declare const client: ReturnType<typeof createClient>;
const project_id = 'acme/support-bot';

describe('resolved types', () => {
  test('POST /objs/query resolves to ObjsQueryRes', () => {
    expectTypeOf(client.POST('/objs/query', { body: { project_id } })).resolves.toEqualTypeOf<ObjsQueryRes>();
  });

  test('GET with a path parameter resolves to the operation body', () => {
    const read = client.GET('/annotation_queues/{queue_id}', {
      params: { path: { queue_id: 'q1' }, query: { project_id } },
    });
    expectTypeOf(read).resolves.toEqualTypeOf<AnnotationQueueRes>();
    expectTypeOf(
      client.GET('/v1/preview/models/{model_id}', { params: { path: { model_id: 'm1' } } }),
    ).resolves.toEqualTypeOf<ModelSchema>();
  });

  test('operations without input take no init', () => {
    expectTypeOf(client.GET('/inference/router/gateway/models')).resolves.toEqualTypeOf<RouterModelsRes>();
  });

  test('the JSON Lines operation is a string on the generic method and parsed by the helper', () => {
    expectTypeOf(client.POST('/annotation_queues/query', { body: { project_id } })).resolves.toEqualTypeOf<AnnotationQueuesQueryRes>();
    expectTypeOf(client.annotationQueuesQuery({ project_id })).resolves.toEqualTypeOf<AnnotationQueueSchema[]>();
  });

  test('the helpers of the non-JSON operations resolve to decoded values', () => {
    expectTypeOf(client.callsStreamQuery({ project_id })).resolves.toEqualTypeOf<CallSchema[]>();
    expectTypeOf(client.fileCreate({ project_id, file: new Uint8Array([1]) })).resolves.toEqualTypeOf<FileCreateRes>();
    expectTypeOf(client.fileContent({ project_id, digest: 'd' })).resolves.toEqualTypeOf<Uint8Array>();
  });

  test('parseAs changes the resolved type as in openapi-fetch', () => {
    expectTypeOf(client.POST('/objs/query', { body: { project_id }, parseAs: 'text' })).resolves.toEqualTypeOf<string>();
  });

  test('error bodies are the documented ones', () => {
    // openapi-fetch maps bodies through Readable<>, so compare by assignability both ways.
    expectTypeOf<ErrorBody<'/obj/read', 'post'>>().toExtend<ErrorReason | ValidationError>();
    expectTypeOf<ErrorReason | ValidationError>().toExtend<ErrorBody<'/obj/read', 'post'>>();
    expectTypeOf<ErrorBody<'/obj/read', 'post'>>().not.toExtend<ErrorReason>();
    expectTypeOf<WeftApiError['body']>().toEqualTypeOf<WeftErrorBody>();
    expectTypeOf<WeftErrorBody>().toEqualTypeOf<ErrorReason | ValidationError>();
  });

  test('raw keeps the openapi-fetch result shape', () => {
    const result = client.raw.POST('/objs/query', { body: { project_id } });
    expectTypeOf(result).resolves.toHaveProperty('response').toEqualTypeOf<Response>();
  });
});

describe('requests that break the spec do not compile', () => {
  test('a path that is not in the spec', () => {
    void client.POST('/objs/query', { body: { project_id } });
    // @ts-expect-error '/objs/querry' is not a path of the spec
    void client.POST('/objs/querry', { body: { project_id } });
  });

  test('a body field of the wrong type', () => {
    void client.POST('/objs/query', { body: { project_id, limit: 10 } });
    // @ts-expect-error limit is an integer, not a string
    void client.POST('/objs/query', { body: { project_id, limit: 'ten' } });
  });

  test('a missing required body field', () => {
    void client.POST('/obj/read', { body: { project_id, object_id: 'support-prompt', digest: 'latest' } });
    // @ts-expect-error digest is required
    void client.POST('/obj/read', { body: { project_id, object_id: 'support-prompt' } });
  });

  test('a missing required nested field', () => {
    const end: CallEndReq = { end: { project_id, id: 'c1', ended_at: '2025-06-03T09:41:28.907Z', summary: {} } };
    void client.POST('/call/end', { body: end });
    // @ts-expect-error end.summary is required
    void client.POST('/call/end', { body: { end: { project_id, id: 'c1', ended_at: '2025-06-03T09:41:28.907Z' } } });
  });

  test('a missing body', () => {
    // @ts-expect-error the operation requires a body
    void client.POST('/objs/query', {});
    // @ts-expect-error the init argument (with its body) is required
    void client.POST('/objs/query');
  });

  test('a missing path parameter', () => {
    void client.GET('/annotation_queues/{queue_id}', { params: { path: { queue_id: 'q1' }, query: { project_id } } });
    // @ts-expect-error params.path.queue_id is required
    void client.GET('/annotation_queues/{queue_id}', { params: { query: { project_id } } });
    // @ts-expect-error the path parameter is required, so is the init argument
    void client.GET('/v1/preview/models/{model_id}');
  });

  test('a missing required query parameter', () => {
    // @ts-expect-error params.query.project_id is required
    void client.DELETE('/annotation_queues/{queue_id}', { params: { path: { queue_id: 'q1' } } });
  });

  test('a method the path does not have', () => {
    void client.POST('/objs/query', { body: { project_id } });
    // @ts-expect-error /objs/query has no GET
    void client.GET('/objs/query', { body: { project_id } });
    // @ts-expect-error /annotation_queues has no DELETE (the queue path has)
    void client.DELETE('/annotation_queues', {});
    void client.PUT('/annotation_queues/{queue_id}', { params: { path: { queue_id: 'q1' } }, body: { project_id, name: 'x' } });
    // @ts-expect-error /annotation_queues/{queue_id} has no POST
    void client.POST('/annotation_queues/{queue_id}', { params: { path: { queue_id: 'q1' } }, body: { project_id } });
  });
});
