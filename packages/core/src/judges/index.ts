export * from './judge-objects.ts';
export * from './judge-prompt.ts';
