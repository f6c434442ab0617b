/**
 * Reads one streamed chat completion: text and reasoning are passed on as they arrive; tool calls
 * are assembled from their fragments.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

export interface StreamedReply {
  text: string;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: string | null;
}

export interface StreamListener {
  text(delta: string): void;
  reasoning(delta: string): void;
}

export async function readReply(stream: AsyncIterable<ChatCompletionChunk>, listener: StreamListener): Promise<StreamedReply> {
  let text = '';
  let finishReason: string | null = null;
  const calls: { id: string; name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const { delta } = choice;
    const reasoning = reasoningOf(delta);
    if (reasoning) listener.reasoning(reasoning);
    if (delta.content) {
      text += delta.content;
      listener.text(delta.content);
    }
    for (const fragment of delta.tool_calls ?? []) {
      const call = (calls[fragment.index] ??= { id: '', name: '', arguments: '' });
      if (fragment.id) call.id = fragment.id;
      if (fragment.function?.name) call.name += fragment.function.name;
      if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  const toolCalls = calls.filter((c) => c.name !== '').map((c, i) => ({ ...c, id: c.id || `call_${i}` }));
  return { text, toolCalls, finishReason };
}

/** Reasoning is not in the OpenAI wire format; servers use `reasoning_content` or `reasoning`. */
function reasoningOf(delta: object): string | undefined {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof fields.reasoning_content === 'string') return fields.reasoning_content;
  if (typeof fields.reasoning === 'string') return fields.reasoning;
  return undefined;
}
