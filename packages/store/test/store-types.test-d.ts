// Type tests (checked by `pnpm typecheck`): the Store interface is derived from the spec, one
// method per operationId, each taking the operation's request and answering its 200 body.
import { expectTypeOf, test } from 'vitest';
import type { CallSchema, ObjReadReq, ObjReadRes, OperationId } from '@weft/types';
import { storeMethods, type Store, type StoreOperationId } from '../src/store.ts';

test('one method per operation of the spec (but those answered without the store, and other paths of one operation)', () => {
  expectTypeOf<StoreOperationId>().toEqualTypeOf<
    Exclude<
      OperationId,
      | 'serverInfo'
      | 'routerModelsList'
      | 'routerChatCompletionsCreate'
      | 'routerEmbeddingsCreate'
      | 'routerEndpointsList'
      | 'trainingJobCreate'
      | 'metrics'
      | 'graphqlQuery'
      | 'live'
      | 'filesCreate'
      | 'filesContent'
    >
  >();
  expectTypeOf<Parameters<Store['objRead']>[0]>().toEqualTypeOf<ObjReadReq>();
  expectTypeOf<ReturnType<Store['objRead']>>().toEqualTypeOf<Promise<ObjReadRes>>();
  expectTypeOf<Parameters<Store['annotationQueueRead']>[0]>().toEqualTypeOf<{ project_id: string; queue_id: string }>();
  // Body and path parameters as one object: the tags of one version, named in the path.
  expectTypeOf<Parameters<Store['objAddTags']>[0]>().toEqualTypeOf<{
    project_id: string;
    tags: string[];
    wb_user_id?: string | null;
    object_id: string;
    digest: string;
  }>();
  expectTypeOf<Parameters<Store['tagsList']>[0]>().toEqualTypeOf<{ project_id: string }>();
  expectTypeOf<ReturnType<Store['callsStreamQuery']>>().toEqualTypeOf<AsyncIterable<CallSchema> | Promise<CallSchema[]>>();
});

test('the lossless tree is part of the context of digest operations only', () => {
  expectTypeOf<Parameters<Store['objCreate']>[1]>().toHaveProperty('source');
  // @ts-expect-error: objRead's context has no source
  expectTypeOf<Parameters<Store['objRead']>[1]>().toHaveProperty('source');
});

test('operations that follow stored refs take the projects the caller may read', () => {
  expectTypeOf<Parameters<Store['refsReadBatch']>[1]>().toHaveProperty('mayRead');
  expectTypeOf<Parameters<Store['callsStreamQuery']>[1]>().toHaveProperty('mayRead');
  expectTypeOf<Parameters<Store['callsQuery']>[1]>().toHaveProperty('mayRead');
  // @ts-expect-error: objRead follows no ref
  expectTypeOf<Parameters<Store['objRead']>[1]>().toHaveProperty('mayRead');
});

test('an implementation must match the spec', () => {
  storeMethods({
    // @ts-expect-error: objRead answers ObjReadRes, not a list
    objRead: async () => [],
  });
  storeMethods({
    // @ts-expect-error: no such operation
    objUpsert: async () => ({}),
  });
});
