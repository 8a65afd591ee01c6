// The conversation to send: each message's role and content, editable, with messages added and
// removed. Content parts (images, audio) prefilled from a trace stay JSON.
import type { DraftMessage } from '../playground/playground-draft.ts';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];

interface Props {
  messages: DraftMessage[];
  onChange: (messages: DraftMessage[]) => void;
  problem?: string | undefined;
}

export function MessagesEditor({ messages, onChange, problem }: Props) {
  const set = (i: number, m: DraftMessage) => onChange(messages.map((x, j) => (j === i ? m : x)));
  const nextRole = messages.at(-1)?.role === 'user' ? 'assistant' : 'user';
  return (
    <fieldset className="messages">
      <legend>Messages</legend>
      <ol aria-label="Messages">
        {messages.map((m, i) => (
          <li key={i} className={`msg msg-${m.role}`}>
            <div className="msg-head">
              <select aria-label={`Role of message ${i + 1}`} value={m.role} onChange={(e) => set(i, { ...m, role: e.target.value })}>
                {(ROLES.includes(m.role) ? ROLES : [m.role, ...ROLES]).map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
              {m.json && <span className="muted">content parts (JSON)</span>}
              {m.extra && <span className="muted">also sends: {Object.keys(m.extra).join(', ')}</span>}
              <button
                type="button"
                className="link"
                aria-label={`Remove message ${i + 1}`}
                onClick={() => onChange(messages.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </div>
            <textarea
              aria-label={`Message ${i + 1}`}
              rows={m.role === 'system' ? 2 : 3}
              placeholder={m.role === 'system' ? 'System prompt (optional)' : ''}
              className={m.json ? 'mono' : undefined}
              value={m.content}
              onChange={(e) => set(i, { ...m, content: e.target.value })}
            />
          </li>
        ))}
      </ol>
      <button type="button" onClick={() => onChange([...messages, { role: nextRole, content: '' }])}>
        Add message
      </button>
      {problem && <p className="problem">{problem}</p>}
    </fieldset>
  );
}
