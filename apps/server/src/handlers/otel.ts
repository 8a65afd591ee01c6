import { invalidField, isOtlpProjectId, otlpProjects } from '@weft/core';
import { decodeOtlpBody, writeOtlpAnswer } from '../http/otlp-body.ts';
import { contextOf, requireProject } from '../http/request-context.ts';
import { ANSWERED, handlers, type Deps } from './handler.ts';

export function otelHandlers({ store, auth }: Deps) {
  return handlers({
    // OTLP/HTTP: the body is decoded first (a bad one is a 400 whoever sends it), then every
    // project it writes to is authorized before anything is stored.
    async otelExport({ body, mediaType, principal, http }, res) {
      const header = http.headers['project_id'];
      if (header !== undefined && (typeof header !== 'string' || !isOtlpProjectId(header))) {
        throw invalidField(['header', 'project_id'], 'must be <entity>/<project>', 'pattern');
      }
      const request = await decodeOtlpBody(body, mediaType);
      const projects = otlpProjects(request, header);
      for (const project of new Set(projects)) if (project !== '') requireProject(auth, principal, project);
      const answer = await store.otelExport({ request, projects }, contextOf(principal));
      writeOtlpAnswer(res, mediaType, typeof answer === 'string' ? {} : answer);
      return ANSWERED;
    },
  });
}
