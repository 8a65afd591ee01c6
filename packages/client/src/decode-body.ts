// How the throwing methods turn a 2xx body (read as text) into the value the spec types it as.

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/; // application/json, application/problem+json, …

/**
 * JSON media types (or no Content-Type, as openapi-fetch assumes) are parsed; anything else —
 * JSON Lines, octet-stream, text — stays text, which is what openapi-typescript types those
 * answers as (`string`). An empty body is undefined.
 */
export function decodeBody(text: string | undefined, response: Response): unknown {
  if (text === undefined || text === '') return undefined;
  const mediaType = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  return mediaType === '' || JSON_MEDIA.test(mediaType) ? JSON.parse(text) : text;
}
