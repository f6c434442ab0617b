import * as vscode from 'vscode';
import type { AcpNative } from './root';
import { errorMessage } from './base/log';
import type { CommandTable } from './base/commandTable';
import { agentCommands, errorActions } from './agents/agentCommands';
import { chatCommands } from './chat/chatCommands';
import { sessionCommands } from './session/sessionCommands';
import { reviewCommands } from './review/reviewCommands';
import { planCommands } from './plans/planCommands';
import { contextWindowCommands } from './contextWindow/contextWindowCommands';
import { partialCommands } from './partialApproval/hunkReview';

/**
 * Every command of the extension: the features' tables merged. A test checks that each command
 * in package.json is registered.
 */
function commandTable(acp: AcpNative): CommandTable {
  const { sessions, verbs, agents } = acp;
  return {
    ...sessionCommands({ sessions, verbs, cards: acp.cards, terminalOutput: (id) => acp.terminalViews.get(id)?.pty.renderedText }),
    ...agentCommands({ agents, verbs, sessions, registry: acp.registry, signIn: acp.signIn, llmApiKey: acp.llmApiKey, mcpServers: acp.mcpServers, trace: acp.trace, log: acp.log }),
    ...chatCommands({ chat: acp.chat, sessions, verbs, permissions: acp.permissions, elicitations: acp.elicitations }),
    ...reviewCommands({ actionLog: acp.actionLog, actionLogActions: acp.actionLogActions, sessions, hunkLenses: acp.hunkLenses }),
    ...planCommands({ plans: acp.plans }),
    ...contextWindowCommands({ contextWindow: acp.contextWindow }),
    ...partialCommands(acp.hunkReview),
  };
}

export function registerCommands(acp: AcpNative): vscode.Disposable[] {
  return Object.entries(commandTable(acp)).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (error) {
        acp.log.error(`${id} failed: ${errorMessage(error)}`);
        const actions = errorActions(error);
        void vscode.window.showErrorMessage(`ACP: ${errorMessage(error)}`, ...actions.map((a) => a.label)).then((pick) => {
          const action = actions.find((a) => a.label === pick);
          if (action?.command) void vscode.commands.executeCommand(action.command);
          else if (action) acp.log.show();
        });
        return undefined;
      }
    }),
  );
}
