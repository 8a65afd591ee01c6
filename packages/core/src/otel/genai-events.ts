// Inputs and output carried by span events rather than attributes, for the instrumentations that
// follow the older GenAI conventions: `gen_ai.content.prompt` / `gen_ai.content.completion` events
// (attribute `gen_ai.prompt` / `gen_ai.completion`), and the per-message events
// `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`. Weave reads none of them, so a
// span from such an instrumentation would show no inputs there. Read only when no attribute
// convention gave inputs (or an output): attributes win, as they are what newer versions send.
import { keyValuesToJson, setOwn, type JsonValue } from './any-value.ts';
import { parseJsonText } from './attribute-lookup.ts';
import type { Span_Event } from './proto/opentelemetry/proto/trace/v1/trace.generated.ts';

const MESSAGE_EVENTS: Readonly<Record<string, string>> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** `[key, value]` as the attribute conventions give it, or undefined when no event carries inputs. */
export function inputFromEvents(events: readonly Span_Event[], where: string): [string, JsonValue] | undefined {
  const prompt = events.find((e) => e.name === 'gen_ai.content.prompt');
  if (prompt) {
    const value = contentOf(prompt, 'gen_ai.prompt', where);
    if (value !== undefined) return ['gen_ai.prompt', value];
  }
  const messages = events
    .filter((e) => Object.hasOwn(MESSAGE_EVENTS, e.name))
    .map((e) => ({ role: MESSAGE_EVENTS[e.name]!, ...parsedAttributes(e, where) }));
  return messages.length > 0 ? ['gen_ai.input.messages', messages] : undefined;
}

/** The output from `gen_ai.content.completion` or the `gen_ai.choice` events, as inputFromEvents. */
export function outputFromEvents(events: readonly Span_Event[], where: string): [string, JsonValue] | undefined {
  const completion = events.find((e) => e.name === 'gen_ai.content.completion');
  if (completion) {
    const value = contentOf(completion, 'gen_ai.completion', where);
    if (value !== undefined) return ['gen_ai.completion', value];
  }
  const choices = events.filter((e) => e.name === 'gen_ai.choice').map((e) => parsedAttributes(e, where));
  return choices.length > 0 ? ['gen_ai.output.messages', choices] : undefined;
}

function contentOf(event: Span_Event, key: string, where: string): JsonValue | undefined {
  const value = parsedAttributes(event, where)[key];
  return value === undefined || value === '' || value === null ? undefined : value;
}

// The event's attributes with JSON text parsed (`content`, `tool_calls`, `message` are often sent
// as JSON strings); the raw event is kept unchanged with the span.
function parsedAttributes(event: Span_Event, where: string): { [key: string]: JsonValue } {
  const attrs = keyValuesToJson(event.attributes, `${where}: event ${event.name}`);
  for (const [k, v] of Object.entries(attrs)) setOwn(attrs, k, parseJsonText(v));
  return attrs;
}
