// The router models the contract's router cases call: the spec examples' own. A server target
// must serve them (apps/server/test/contract.test.ts); any other model is unknown to it.
export const CHAT_MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
export const EMBEDDINGS_MODEL = 'BAAI/bge-m3';
