/**
 * The default, offline brain: it reads the prompt as commands (see commands.ts) and runs them in
 * order, through the same tools, permissions and cards as the LLM brain.
 */
import type { ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import { assertNever } from '../../../protocol/assertNever';
import type { Brain, TurnContext } from '../types';
import { actionFor, AVAILABLE_COMMANDS, HELP_TEXT } from './commands';
import { runDemo } from './demo';
import { callMcpTool, listMcpServers } from './mcp';
import { parseScript } from './parse';

export class ScriptedBrain implements Brain {
  readonly availableCommands = AVAILABLE_COMMANDS;

  async runTurn(turn: TurnContext, prompt: ContentBlock[]): Promise<StopReason> {
    const text = prompt.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    const commands = parseScript(text);
    if (commands.length === 0) {
      turn.say(HELP_TEXT);
      return 'end_turn';
    }
    for (const command of commands) {
      if (turn.signal.aborted) return 'cancelled';
      const action = actionFor(command);
      switch (action.kind) {
        case 'tool':
          await turn.runTool(action.tool, action.args);
          break;
        case 'demo':
          await runDemo(turn);
          break;
        case 'mcp-list':
          turn.say(await listMcpServers(turn));
          break;
        case 'mcp-call':
          await callMcpTool(turn, action.server, action.tool, action.arguments);
          break;
        case 'help':
          turn.say(HELP_TEXT);
          break;
        case 'usage':
          turn.say(action.message);
          break;
        default:
          assertNever(action, 'script action');
      }
    }
    return turn.signal.aborted ? 'cancelled' : 'end_turn';
  }
}
