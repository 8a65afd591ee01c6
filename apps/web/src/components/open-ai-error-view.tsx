// An error in OpenAI's shape, readable: what went wrong, its type and code, the request field at
// fault and the HTTP status.
import type { OpenAiErrorDetail } from '../playground/chat-stream.ts';

export function OpenAiErrorView({ error, status }: { error: OpenAiErrorDetail; status?: number | undefined }) {
  const facts = [error.type, error.code && `code ${error.code}`, error.param && `field ${error.param}`, status && `HTTP ${status}`].filter(
    Boolean,
  );
  return (
    <div role="alert" className="error">
      <strong>{error.message}</strong>
      {facts.length > 0 && <p className="mono">{facts.join(' · ')}</p>}
    </div>
  );
}
