// What a page shows while its data loads or when it could not be read: a 403 says which access is
// missing, a 404 what was not found; anything else its reason. (401 signs out: see app.tsx.)
import { isWeftApiError } from '@weft/client';
import type { ApiErrorBody } from '../api.ts';

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="muted">
      Loading {what}…
    </p>
  );
}

export function ErrorView({ error }: { error: unknown }) {
  // openapi-react-query throws the error body itself; the client's throwing methods a WeftApiError.
  const thrown = isWeftApiError(error) ? error.body : error;
  const body = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as ApiErrorBody;
  const title =
    body.error_type === 'Forbidden'
      ? 'This API key may not see this'
      : body.error_type === 'NotFoundError'
        ? 'Not found'
        : 'Could not load this';
  const reason = body.reason ?? body.detail?.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ') ?? String(error);
  return (
    <div role="alert" className="error">
      <strong>{title}</strong>
      <p>{reason}</p>
    </div>
  );
}
