// What other packages' tests share from @weft/core (`@weft/core/testing`): Weave's reference
// digests, and a span with every field at its default.
export * from './digest/weave-vectors.ts';
export { fixtureSpan } from './otel/span-fixture.ts';
