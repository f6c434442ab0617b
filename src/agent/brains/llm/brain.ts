/**
 * The LLM brain: any OpenAI-compatible chat-completions endpoint, through the `openai` client.
 * Text and reasoning stream to the user as they arrive; tool calls run through the same tools,
 * permissions and cards as the scripted brain, in a loop until the model stops calling tools.
 */
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { LlmConfig } from '../../config';
import { log } from '../../log';
import { MODEL_TOOLS } from '../../tools';
import { MCP_TOOL_NAME } from '../../tools/mcp';
import type { Brain, TurnContext } from '../types';
import { historyMessages, promptText, toolMessage } from './history';
import { mcpCallArgs, mcpFunctions, type McpFunctions } from './mcpTools';
import { readReply } from './stream';

/** Model requests per turn before the agent stops with `max_turn_requests`. */
const MAX_REQUESTS = 50;

const TOOL_SPECS: ChatCompletionTool[] = MODEL_TOOLS.map((tool) => ({
  type: 'function',
  function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
}));

export class LlmBrain implements Brain {
  private readonly client: OpenAI;
  /** The sessions' MCP server sets whose unavailable servers the user was told about. */
  private readonly toldUnavailable = new WeakSet<object>();

  constructor(private readonly config: LlmConfig) {
    this.client = new OpenAI({
      // Local servers (Ollama, llama.cpp, vLLM) take any key; the client insists on one.
      apiKey: config.apiKey ?? 'not-needed',
      ...(config.baseURL !== undefined ? { baseURL: config.baseURL } : {}),
      maxRetries: 1,
    });
  }

  async runTurn(turn: TurnContext, prompt: ContentBlock[]): Promise<StopReason> {
    // The session's MCP tools join the agent's own, as the servers list them now.
    const mcp = await mcpFunctions(turn);
    // The user is told too, once per set of servers: the model may not mention it.
    if (mcp.unavailable.length > 0 && !this.toldUnavailable.has(turn.mcp)) {
      this.toldUnavailable.add(turn.mcp);
      turn.say(`${mcp.unavailable.map((why) => `⚠ ${why}`).join('\n')}\n\n`);
    }
    const tools = [...TOOL_SPECS, ...mcp.specs];
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: systemPrompt(turn.cwd, mcp.unavailable) },
      ...historyMessages(turn.history),
      { role: 'user', content: promptText(prompt) },
    ];
    for (let request = 0; request < MAX_REQUESTS; request++) {
      if (turn.signal.aborted) return 'cancelled';
      let reply;
      try {
        const stream = await this.client.chat.completions.create(
          { model: this.config.model, messages, tools, stream: true },
          { signal: turn.signal },
        );
        reply = await readReply(stream, { text: (t) => turn.say(t), reasoning: (t) => turn.think(t) });
      } catch (error) {
        if (turn.signal.aborted) return 'cancelled';
        log.error('model request failed', error);
        turn.say(`\n\nThe model request failed: ${error instanceof Error ? error.message : String(error)}`);
        return 'end_turn';
      }
      if (reply.toolCalls.length === 0) return reply.finishReason === 'length' ? 'max_tokens' : 'end_turn';

      messages.push({
        role: 'assistant',
        content: reply.text || null,
        tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      });
      for (const call of reply.toolCalls) {
        if (turn.signal.aborted) return 'cancelled';
        const outcome = await this.callTool(turn, call.name, call.arguments, mcp);
        messages.push({ role: 'tool', tool_call_id: call.id, content: toolMessage(outcome) });
      }
    }
    turn.say(`\n\nStopped after ${MAX_REQUESTS} model requests in one turn.`);
    return 'max_turn_requests';
  }

  private async callTool(turn: TurnContext, name: string, rawArguments: string, mcp: McpFunctions): Promise<{ isError: boolean; text: string }> {
    let args: unknown;
    try {
      args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
    } catch {
      return { isError: true, text: `The arguments of ${name} are not valid JSON: ${rawArguments.slice(0, 200)}` };
    }
    const target = mcp.byName.get(name);
    if (target !== undefined) return turn.runTool(MCP_TOOL_NAME, mcpCallArgs(target, args));
    // The internal tool is reached only through the functions above.
    if (name === MCP_TOOL_NAME) return { isError: true, text: `There is no tool named ${name}.` };
    return turn.runTool(name, args);
  }
}

function systemPrompt(cwd: string, unavailableMcp: string[]): string {
  return [
    'You are the coding agent bundled with ACP Native, working in an editor on the user\'s project.',
    `The project folder (session cwd) is ${cwd}; the platform is ${process.platform}.`,
    'Use the tools to read, change and run things; paths may be absolute or relative to the project folder.',
    'Read a file before editing it; prefer edit over rewriting whole files; keep the user informed briefly.',
    ...(unavailableMcp.length > 0 ? ['These MCP servers could not be started (tell the user if they need them):', ...unavailableMcp] : []),
  ].join('\n');
}
