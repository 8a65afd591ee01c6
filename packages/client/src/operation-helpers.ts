// Helpers for the operations whose wire format the generic methods cannot type well: JSON Lines
// answers (typed as one string by the spec), a multipart upload, and a binary download.
import type {
  AnnotationQueueSchema,
  AnnotationQueuesQueryReq,
  CallSchema,
  CallsStreamQueryReq,
  FileContentReq,
  FileCreateRes,
  ThreadSchema,
  ThreadsQueryReq,
} from '@weft/types';
import type { HeadersOptions } from 'openapi-fetch';
import { parseJsonLines } from './json-lines.ts';
import type { TypedMethod } from './typed-methods.ts';

/** Per-call options of the helpers. */
export interface CallOptions {
  headers?: HeadersOptions;
  signal?: AbortSignal;
}

export interface FileUpload {
  project_id: string;
  /** The bytes; a string is sent as UTF-8. */
  file: Blob | Uint8Array | string;
  /** Name of the multipart part's file; the Weave SDK sends `blob`. */
  filename?: string;
}

export interface OperationHelpers {
  /** `POST /annotation_queues/query`: JSON Lines, one queue per line. */
  annotationQueuesQuery(body: AnnotationQueuesQueryReq, options?: CallOptions): Promise<AnnotationQueueSchema[]>;
  /** `POST /calls/stream_query`: JSON Lines, one call per line. */
  callsStreamQuery(body: CallsStreamQueryReq, options?: CallOptions): Promise<CallSchema[]>;
  /** `POST /threads/stream_query`: JSON Lines, one thread per line. */
  threadsStreamQuery(body: ThreadsQueryReq, options?: CallOptions): Promise<ThreadSchema[]>;
  /** `POST /file/create` as multipart/form-data. */
  fileCreate(upload: FileUpload, options?: CallOptions): Promise<FileCreateRes>;
  /** `POST /file/content`: the stored bytes. */
  fileContent(body: FileContentReq, options?: CallOptions): Promise<Uint8Array>;
}

export function operationHelpers(POST: TypedMethod<'post'>): OperationHelpers {
  return {
    async annotationQueuesQuery(body, options) {
      return parseJsonLines<AnnotationQueueSchema>(await POST('/annotation_queues/query', { body, parseAs: 'text', ...options }));
    },
    async callsStreamQuery(body, options) {
      return parseJsonLines<CallSchema>(await POST('/calls/stream_query', { body, parseAs: 'text', ...options }));
    },
    async threadsStreamQuery(body, options) {
      return parseJsonLines<ThreadSchema>(await POST('/threads/stream_query', { body, parseAs: 'text', ...options }));
    },
    fileCreate({ project_id, file, filename = 'blob' }, options) {
      const form = new FormData();
      form.append('project_id', project_id);
      // Copying a Uint8Array gives it a plain ArrayBuffer, which Blob takes (a Buffer may not have one).
      const blob = file instanceof Blob ? file : new Blob([typeof file === 'string' ? file : new Uint8Array(file)]);
      form.append('file', blob, filename);
      // The spec types the `format: binary` part as a string; the real part is the Blob above,
      // which the serializer sends (fetch then sets the multipart boundary).
      return POST('/file/create', { body: { project_id, file: '' }, bodySerializer: () => form, ...options });
    },
    async fileContent(body, options) {
      return new Uint8Array(await POST('/file/content', { body, parseAs: 'arrayBuffer', ...options }));
    },
  };
}
