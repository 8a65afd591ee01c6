// Checks one recorded answer against the spec: the operation exists, the status is documented,
// the media type is one the spec lists, and a JSON body matches that media type's schema.
import type { Exchange } from './exchange-recorder.ts';
import { escapeJsonPointer, documentedResponse, matchOperation, type SpecOperation } from '@weft/types/spec';
import type { SpecValidator } from './spec-validator.ts';

export interface Conformance {
  /** Empty when the answer is what the spec documents; otherwise one line per problem. */
  problems: string[];
  /** The operation the request was for, when one matched. */
  operation?: SpecOperation;
}

export interface ConformanceChecker {
  check(exchange: Exchange): Conformance;
}

// Media types whose body is one JSON value per line; the spec types the whole body as a string.
const JSON_LINES = new Set(['application/jsonl', 'application/x-ndjson']);
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

export function createConformanceChecker(
  operations: readonly SpecOperation[],
  validator: SpecValidator,
  /** Path prefix of the base URL (e.g. `/api`), stripped before matching path templates. */
  basePath = '',
): ConformanceChecker {
  const prefix = basePath.replace(/\/+$/, '');
  return {
    check(exchange) {
      const pathname =
        prefix && exchange.url.pathname.startsWith(prefix) ? exchange.url.pathname.slice(prefix.length) : exchange.url.pathname;
      const label = `${exchange.method} ${pathname} → ${exchange.status}`;
      const operation = matchOperation(operations, exchange.method, pathname);
      if (!operation) return { problems: [`${label}: no operation of the spec has this method and path`] };

      const documented = documentedResponse(operation, exchange.status);
      if (!documented) {
        const listed = Object.keys(operation.responses).join(', ');
        return {
          operation,
          problems: [`${label}: status not documented for ${operation.operationId} (documented: ${listed})${excerpt(exchange.text)}`],
        };
      }
      const problems = [
        ...headerProblems(exchange, documented.response.headers ?? {}),
        ...bodyProblems(exchange, documented.response.content, documented.pointer, validator, operation.eventSchema),
      ];
      return { operation, problems: problems.map((p) => `${label} (${operation.operationId}): ${p}`) };
    },
  };
}

function headerProblems(exchange: Exchange, headers: Record<string, unknown>): string[] {
  // RFC 7235 §3.1: a 401 MUST carry WWW-Authenticate; the spec documents it on every 401.
  if (exchange.status === 401 && 'WWW-Authenticate' in headers && !exchange.headers.has('WWW-Authenticate')) {
    return ['401 without a WWW-Authenticate header'];
  }
  return [];
}

function bodyProblems(
  exchange: Exchange,
  content: Record<string, unknown> | undefined,
  responsePointer: string,
  validator: SpecValidator,
  eventSchema: string | undefined,
): string[] {
  if (!content || Object.keys(content).length === 0) {
    return exchange.text === '' ? [] : [`the spec documents no body, got${excerpt(exchange.text)}`];
  }
  const contentType = exchange.headers.get('Content-Type');
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(mediaType in content)) {
    return [`Content-Type ${contentType ?? '(none)'} is not one of ${Object.keys(content).join(', ')}`];
  }
  const schemaPointer = `${responsePointer}/content/${escapeJsonPointer(mediaType)}/schema`;

  if (JSON_LINES.has(mediaType)) {
    const problems = validator.problems(schemaPointer, exchange.text);
    exchange.text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        JSON.parse(line);
      } catch {
        problems.push(`line ${i + 1} of the JSON Lines body is not JSON${excerpt(line)}`);
      }
    });
    return problems;
  }

  if (mediaType === 'text/event-stream' && eventSchema) return eventProblems(exchange.text, eventSchema, validator);

  // Bytes (application/octet-stream) and other text: the media type is all the spec pins down.
  if (!JSON_MEDIA.test(mediaType)) return [];

  let body: unknown;
  try {
    body = JSON.parse(exchange.text);
  } catch {
    return [`the body is not JSON${excerpt(exchange.text)}`];
  }
  const problems = validator.problems(schemaPointer, body).map((p) => `body ${p}`);
  return problems.length ? [...problems, `the body was${excerpt(exchange.text)}`] : [];
}

/**
 * A server-sent events answer: every `data:` event is one JSON value of the named schema, and the
 * stream ends with `data: [DONE]`, or with one `{"error":…}` event in OpenAI's shape (a failure
 * after the first event; ChatCompletionChunk's description).
 */
function eventProblems(text: string, eventSchema: string, validator: SpecValidator): string[] {
  const problems: string[] = [];
  const events = text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    )
    .filter((data) => data !== '');
  events.forEach((data, i) => {
    const last = i === events.length - 1;
    if (data === '[DONE]') {
      if (!last) problems.push(`event ${i + 1}: [DONE] before the end of the stream`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      problems.push(`event ${i + 1} is not JSON${excerpt(data)}`);
      return;
    }
    const isError = typeof value === 'object' && value !== null && 'error' in value;
    if (isError && !last) problems.push(`event ${i + 1}: an error event before the end of the stream`);
    problems.push(...validator.schemaProblems(isError ? 'OpenAIError' : eventSchema, value).map((p) => `event ${i + 1} ${p}`));
  });
  const end = events.at(-1);
  if (end !== '[DONE]' && !(end?.startsWith('{"error"') ?? false)) problems.push(`the stream does not end with [DONE] or an error event`);
  return problems;
}

const excerpt = (text: string) => (text === '' ? ' (empty body)' : `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`);
