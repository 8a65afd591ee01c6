// OTLP/HTTP bodies and answers (https://opentelemetry.io/docs/specs/otlp/#otlphttp): a request is
// protobuf or JSON, and so is its success answer; a body that does not decode is a 400 (not the
// 422 of Weft's JSON operations), since OTLP clients read 400 as "do not retry this".
import { decodeOtlpJson, ExportTraceServiceResponse, invalidRequest, readOtlpProtobuf, type OtlpExport } from '@weft/core';
import type { Response } from 'express';
import type { OtlpExportRes } from '@weft/types';
import { bodyText, parseStrictJson } from './body/parse-json.ts';
import { ONE_PIECE_MAX_BYTES, parseJsonChunks } from './body/parse-json-chunks.ts';

export const PROTOBUF = 'application/x-protobuf';

/**
 * The export, its envelope checked; protobuf spans stay bytes until the store maps them (a span
 * that does not decode then is a 400 too, and nothing of the export is stored).
 */
export async function decodeOtlpBody(chunks: Buffer[], mediaType: string): Promise<OtlpExport> {
  if (mediaType === PROTOBUF) {
    try {
      // The request's own body, read by nothing else: a mapping thread may take it (no copy).
      return await readOtlpProtobuf(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), undefined, { given: true });
    } catch (err) {
      throw invalidRequest(`Malformed OTLP protobuf: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const size = chunks.reduce((n, c) => n + c.length, 0);
  // An empty protobuf message is an export of nothing; empty text is no JSON at all.
  if (size === 0) throw invalidRequest('Malformed OTLP/JSON: the body is empty');
  let value: unknown;
  try {
    value = size > ONE_PIECE_MAX_BYTES ? await parseJsonChunks(chunks) : parseStrictJson(bodyText(Buffer.concat(chunks, size)));
  } catch (err) {
    const e = err as { message?: string; detail?: Array<{ msg: string }> };
    throw invalidRequest(`Malformed OTLP/JSON: ${e.detail?.[0]?.msg ?? e.message ?? 'malformed JSON'}`);
  }
  try {
    return await decodeOtlpJson(value);
  } catch (err) {
    throw invalidRequest(`Malformed OTLP/JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The store's answer (OTLP/JSON) in the request's encoding. */
export function writeOtlpAnswer(res: Response, mediaType: string, answer: OtlpExportRes): void {
  if (mediaType !== PROTOBUF) {
    res.status(200).json(answer);
    return;
  }
  const bytes = ExportTraceServiceResponse.encode({ partialSuccess: answer.partialSuccess }).finish();
  res
    .status(200)
    .type(PROTOBUF)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
