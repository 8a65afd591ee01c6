// Type tests (checked by `pnpm typecheck`): the handler map is the spec's operations, each handler
// receives its operation's request and must answer its operation's 200 body.
import { expectTypeOf, test } from 'vitest';
import type { JsonNode } from '@weft/core';
import type { ObjReadReq, ObjReadRes, OperationId } from '@weft/types';
import type { SpooledBody } from '../http/body/spooled-body.ts';
import type { ReadBody } from '../http/body/read-body.ts';
import { handlers, type BodyByMode, type Handler, type Handlers, type OperationInput } from './handler.ts';

declare const objRead: ObjReadRes;

test('a handler receives its operation body, and the lossless tree where the spec says lossless', () => {
  expectTypeOf<OperationInput<'objRead'>['body']>().toEqualTypeOf<ObjReadReq>();
  expectTypeOf<OperationInput<'objCreate'>['source']>().toEqualTypeOf<JsonNode>();
  expectTypeOf<OperationInput<'modelLog'>['body']>().toEqualTypeOf<SpooledBody>();
  expectTypeOf<OperationInput<'annotationQueueRead'>['params']>().toEqualTypeOf<{ queue_id: string }>();
  // @ts-expect-error: only lossless operations get the tree; objRead is plain JSON
  expectTypeOf<OperationInput<'objRead'>['source']>().toBeUnknown();
});

test('a handler must answer its operation 200 body', () => {
  const good: Handler<'objRead'> = async () => objRead;
  // @ts-expect-error: `objs` is objsQuery's answer field, not objRead's
  const wrongField: Handler<'objRead'> = async () => ({ objs: [] });
  // @ts-expect-error: a field of the right name but the wrong type
  const wrongType: Handler<'serverInfo'> = async () => ({
    min_required_weave_python_version: 1,
    trace_server_version: 'x',
    key_scope: 'admin',
    svc_user_id: 'alice',
  });
  void [good, wrongField, wrongType];
});

test('the handler map needs every operation of the spec', () => {
  const all = {} as Handlers;
  const { objRead: _dropped, ...withoutObjRead } = all;
  // @ts-expect-error: objRead is missing
  const incomplete: Handlers = withoutObjRead;
  void incomplete;
  expectTypeOf<keyof Handlers>().toEqualTypeOf<OperationId>();
});

test('a group of handlers is checked against the spec', () => {
  handlers({
    // @ts-expect-error: not an operation of the spec
    objUpsert: async () => ({}),
  });
});

test('what the body reader gives is keyed by body mode: each mode carries its own parts only', () => {
  const stream: ReadBody = { mode: 'stream', size: 1, spooled: {} as SpooledBody };
  const bytes: ReadBody = { mode: 'bytes', size: 1, chunks: [Buffer.alloc(1)], mediaType: 'application/x-protobuf' };
  // @ts-expect-error: a lossless read must carry the tree its digests are computed from
  const noTree: ReadBody = { mode: 'lossless', size: 1 };
  // @ts-expect-error: a JSON read carries no spooled file (its value is in req.body)
  const mixed: ReadBody = { mode: 'json', size: 1, spooled: {} as SpooledBody };
  void [stream, bytes, noTree, mixed];
  expectTypeOf<BodyByMode<ObjReadReq, never>['lossless']>().toEqualTypeOf<{ body: ObjReadReq; source: JsonNode }>();
});
