// A call's exception: its type and message on one line, the stack below, folded when long.
import { exceptionFacts } from '../exception-facts.ts';

const FOLD_LINES = 12;

export function ExceptionView({ text }: { text: string }) {
  const { type, message, stack } = exceptionFacts(text);
  const lines = stack?.split('\n').length ?? 0;
  return (
    <div className="exception" role="group" aria-label="Exception">
      <p>
        {type && <strong className="mono">{type}</strong>}
        {type && message && ': '}
        <span className="exception-message">{message}</span>
      </p>
      {stack &&
        (lines > FOLD_LINES ? (
          <details>
            <summary>Stack ({lines} lines)</summary>
            <pre>{stack}</pre>
          </details>
        ) : (
          <pre>{stack}</pre>
        ))}
    </div>
  );
}
