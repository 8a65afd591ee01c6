// The router's errors in OpenAI's shape: the one place their `type` and `code` strings are
// spelled (the spec's OpenAIError lists the types). Add constructors here rather than writing a
// type string elsewhere.
import { RouterError } from './router-error.ts';

export const OPENAI_ERROR_TYPES = Object.freeze({
  invalidRequest: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  notFound: 'not_found_error',
  rateLimit: 'rate_limit_error',
  budgetExceeded: 'budget_exceeded',
  timeout: 'timeout_error',
  upstream: 'upstream_error',
  server: 'server_error',
  serviceUnavailable: 'service_unavailable',
} as const);

/** A `model` (or `models[i]`) the router file does not declare: 404 as OpenAI answers an unknown model. */
export const modelNotFound = (model: string, param: string) =>
  new RouterError({
    status: 404,
    type: OPENAI_ERROR_TYPES.invalidRequest,
    code: 'model_not_found',
    param,
    message: `The model ${JSON.stringify(model)} does not exist on this router (GET /inference/router/gateway/models lists them)`,
  });

/** A request field the router cannot honour as given. */
export const invalidParam = (param: string, message: string) =>
  new RouterError({ status: 400, type: OPENAI_ERROR_TYPES.invalidRequest, code: 'invalid_value', param, message });

/** No endpoint is left to try once the request's preferences are applied (OpenRouter answers 503 too). */
export const noEndpoint = (message: string) =>
  new RouterError({ status: 503, type: OPENAI_ERROR_TYPES.serviceUnavailable, code: 'no_endpoint', param: null, message });
