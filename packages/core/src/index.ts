// Domain code shared by the store and the server: digests, object classes, decimals, the router
// catalogue, costs, the error catalogue, the turn clock and UUIDv7 ids. No I/O beyond reading the
// catalogue file.
export * from './digest/index.ts';
export * from './object-class.ts';
export * from './decimal/index.ts';
export * from './router/index.ts';
export * from './costs/index.ts';
export * from './errors.ts';
export * from './turns.ts';
export * from './judges/index.ts';
export * from './ids.ts';
export * from './otel/index.ts';
export * from './refs/weave-ref.ts';
export * from './seeded-random.ts';
export { nativeJson, nativeJsonDisabled, type NativeJson } from './native-json.ts';
