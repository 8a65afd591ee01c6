// "Open in playground" on a traced LLM call: the playground reads the call itself (by project and
// id), so nothing of its content goes into the URL.
import { Link } from 'react-router';
import { isLlmInputs } from '../playground/playground-draft.ts';

export function OpenInPlayground({ projectId, callId, inputs }: { projectId: string; callId: string; inputs: unknown }) {
  if (!isLlmInputs(inputs)) return null;
  const search = new URLSearchParams({ project: projectId, call: callId });
  return (
    <Link className="button" to={`/playground?${search.toString()}`}>
      Open in playground
    </Link>
  );
}
