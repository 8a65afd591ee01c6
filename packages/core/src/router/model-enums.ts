import type { SamplingParameter, SupportedFeature } from './model-entry.ts';

// Runtime twins of the union types, used to validate the catalogue. The
// `satisfies Record<…, true>` objects make the compiler fail if a union
// member is added or removed without updating the list here.

const SAMPLING = {
  temperature: true,
  top_p: true,
  top_k: true,
  repetition_penalty: true,
  frequency_penalty: true,
  presence_penalty: true,
  stop: true,
  seed: true,
} as const satisfies Record<SamplingParameter, true>;

const FEATURES = {
  tools: true,
  json_mode: true,
  structured_outputs: true,
  web_search: true,
  reasoning: true,
} as const satisfies Record<SupportedFeature, true>;

export const SAMPLING_PARAMETERS = Object.freeze(Object.keys(SAMPLING) as SamplingParameter[]);
export const SUPPORTED_FEATURES = Object.freeze(Object.keys(FEATURES) as SupportedFeature[]);
