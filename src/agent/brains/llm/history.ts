/**
 * A session's events as a chat-completions conversation, so a reloaded or resumed session goes
 * on where it stopped. Thoughts stay out (models do not want their reasoning back); tool calls
 * and results pair up by id, and a call that never got a result is answered as interrupted, since
 * the API rejects unanswered calls.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { SessionEvent } from '../../sessionEvents';
import { modelFacingCall } from '../../tools/mcp';

export function historyMessages(events: readonly SessionEvent[]): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  let assistant: ChatCompletionAssistantMessageParam | undefined;
  /** The current assistant message already has tool results after it. */
  let answered = false;
  const unanswered = new Set<string>();

  const answerInterrupted = (): void => {
    for (const id of unanswered) messages.push({ role: 'tool', tool_call_id: id, content: 'Error: interrupted before it finished.' });
    unanswered.clear();
  };
  const startAssistant = (content: string | null): ChatCompletionAssistantMessageParam => {
    answerInterrupted();
    const message: ChatCompletionAssistantMessageParam = { role: 'assistant', content };
    messages.push(message);
    answered = false;
    return message;
  };

  for (const event of events) {
    switch (event.type) {
      case 'user_message':
        answerInterrupted();
        messages.push({ role: 'user', content: promptText(event.content as ContentBlock[]) });
        assistant = undefined;
        break;
      case 'agent_message':
        if (assistant === undefined || answered || assistant.tool_calls !== undefined) assistant = startAssistant(event.text);
        else assistant.content = `${typeof assistant.content === 'string' ? assistant.content : ''}${event.text}`;
        break;
      case 'tool_call':
        if (assistant === undefined || answered) assistant = startAssistant(null);
        assistant.tool_calls = [
          ...(assistant.tool_calls ?? []),
          // An MCP call goes back as the `mcp__SERVER__TOOL` function the model called.
          { id: event.toolCallId, type: 'function', function: modelFacingCall(event.tool, event.args) ?? { name: event.tool, arguments: JSON.stringify(event.args) } },
        ];
        unanswered.add(event.toolCallId);
        break;
      case 'tool_result':
        if (!unanswered.delete(event.toolCallId)) break;
        messages.push({ role: 'tool', tool_call_id: event.toolCallId, content: toolMessage(event) });
        answered = true;
        break;
      case 'session':
      case 'agent_thought':
      case 'plan':
      case 'mode':
        break;
    }
  }
  answerInterrupted();
  return messages;
}

export function toolMessage(outcome: { isError: boolean; text: string }): string {
  return outcome.isError ? `Error: ${outcome.text}` : outcome.text;
}

/** The text a model gets from a prompt's content blocks. */
export function promptText(blocks: ContentBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'resource_link':
          return `[${block.name}](${block.uri})`;
        case 'resource':
          return 'text' in block.resource ? `${block.resource.uri}:\n${block.resource.text}` : `[${block.resource.uri}]`;
        case 'image':
        case 'audio':
          return `[${block.type} omitted]`;
      }
    })
    .join('\n');
}
