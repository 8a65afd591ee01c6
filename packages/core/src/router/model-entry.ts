/**
 * One model as served by GET /inference/router/gateway/models, in
 * OpenRouter's provider format. Hand-written for now; a type generated
 * from the OpenAPI spec will replace it, so keep it structurally
 * identical to the wire schema (no extra or renamed fields).
 */
export interface ModelEntry {
  id: string;
  name: string;
  /** Unix seconds. */
  created: number;
  input_modalities: string[];
  output_modalities: string[];
  context_length: number;
  /** Never greater than context_length. */
  max_output_length: number;
  pricing: ModelPricing;
  supported_sampling_parameters: SamplingParameter[];
  supported_features: SupportedFeature[];
  datacenters: Datacenter[];
  /** "YYYY-MM-DD". The key is omitted when unset: never null or "". */
  deprecation_date?: string;
}

/** USD as plain decimal strings, so no price is ever rounded by a float. */
export interface ModelPricing {
  /** Per prompt token. */
  prompt: string;
  /** Per completion token. */
  completion: string;
  /** Per input image. */
  image: string;
  /** Per request. */
  request: string;
  /** Per prompt token served from the prompt cache. */
  input_cache_read: string;
}

export type SamplingParameter =
  'temperature' | 'top_p' | 'top_k' | 'repetition_penalty' | 'frequency_penalty' | 'presence_penalty' | 'stop' | 'seed';

export type SupportedFeature = 'tools' | 'json_mode' | 'structured_outputs' | 'web_search' | 'reasoning';

export interface Datacenter {
  /** ISO 3166-1 alpha-2, upper case. */
  country_code: string;
}
