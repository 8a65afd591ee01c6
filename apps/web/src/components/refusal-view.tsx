// A write the server refused (a 400's reason, a 422's detail, a 403, a 409): shown as it said it,
// never swallowed. Reads' failures are query-state.tsx's ErrorView.
import type { ApiErrorBody } from '../api.ts';

/** The server's words for a refused request. */
export function reasonOf(error: unknown): string {
  const body = (typeof error === 'object' && error !== null ? error : {}) as ApiErrorBody;
  if (body.reason) return body.reason;
  if (body.detail?.length) return body.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; ');
  return error instanceof Error ? error.message : String(error);
}

export function RefusalView({ error, what = 'The server refused this' }: { error: unknown; what?: string }) {
  return (
    <div role="alert" className="error">
      <strong>{what}</strong>
      <p>{reasonOf(error)}</p>
    </div>
  );
}
