// Chat messages shown as a conversation: OpenAI-style `messages` in inputs, `choices[].message`
// in outputs, or a bare list of `{role, content}`.
export interface ChatMessage {
  role: string;
  content: unknown;
}

const isMessage = (m: unknown): m is ChatMessage =>
  typeof m === 'object' && m !== null && typeof (m as ChatMessage).role === 'string' && 'content' in m;

/** The messages a value holds, or undefined when it is not a conversation. */
export function messagesOf(value: unknown): ChatMessage[] | undefined {
  if (Array.isArray(value)) return value.length > 0 && value.every(isMessage) ? value : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.messages) && v.messages.length > 0 && v.messages.every(isMessage)) return v.messages;
  if (Array.isArray(v.choices)) {
    const messages = v.choices.map((c) => (typeof c === 'object' && c !== null ? (c as { message?: unknown }).message : undefined));
    if (messages.length > 0 && messages.every(isMessage)) return messages;
  }
  return undefined;
}

// A tool call's assistant message has no content: its calls are what it said.
function textOf(m: ChatMessage): string {
  if (typeof m.content === 'string') return m.content;
  const calls = (m as { tool_calls?: unknown }).tool_calls;
  return JSON.stringify(m.content ?? calls ?? null, null, 2);
}

export function ChatView({ messages }: { messages: ChatMessage[] }) {
  return (
    <ol className="chat" aria-label="Conversation">
      {messages.map((m, i) => (
        <li key={i} className={`msg msg-${m.role}`}>
          <span className="role">{m.role}</span>
          <div className="content">{textOf(m)}</div>
        </li>
      ))}
    </ol>
  );
}
