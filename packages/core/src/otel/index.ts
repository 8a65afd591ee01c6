// OpenTelemetry trace ingest (POST /otel/v1/traces): decoding OTLP (protobuf with the code
// generated from the vendored opentelemetry-proto files, or OTLP/JSON) and mapping spans to calls.
export { decodeOtlpProtobuf, readOtlpProtobuf, spanOf, type OtlpExport, type SpanSource } from './decode-protobuf.ts';
export { decodeOtlpJson, OtlpJsonError } from './decode-json.ts';
export { isOtlpProjectId, otlpCallChunks, otlpCalls, otlpProjects, SpanTally, type OtelBatch, type TallyState } from './otel-export.ts';
export { mapThreadCounts, otlpCallChunksOffMain, THREAD_MIN_SPANS } from './map-thread.ts';
export { spanToCall, spanOrigin, type OtelCall, type SpanOrigin } from './span-to-call.ts';
export { SpanRefusal, type JsonValue } from './any-value.ts';
export {
  ExportTraceServiceRequest,
  ExportTraceServiceResponse,
} from './proto/opentelemetry/proto/collector/trace/v1/trace_service.generated.ts';
