export type { ModelEntry, ModelPricing, SamplingParameter, SupportedFeature, Datacenter } from './model-entry.ts';
export { SAMPLING_PARAMETERS, SUPPORTED_FEATURES } from './model-enums.ts';
export { INTERNAL_FIELDS } from './validate-model.ts';
export type { Catalogue } from './create-catalogue.ts';
export { createCatalogue } from './create-catalogue.ts';
export { parseCatalogue, loadCatalogue, CatalogueError, DEFAULT_CATALOGUE_URL } from './load-catalogue.ts';
