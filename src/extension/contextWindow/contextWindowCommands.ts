import type { CommandTable } from '../base/commandTable';
import type { ContextWindow } from './contextWindow';

/** The commands of the context meter: compact, and carry the conversation into a new session. */
export function contextWindowCommands(deps: { contextWindow: ContextWindow }): CommandTable {
  const sessionArg = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    'acpNative.compactConversation': (sessionId?: unknown) => deps.contextWindow.compact(sessionArg(sessionId)),
    'acpNative.newSessionFromSummary': (sessionId?: unknown) => deps.contextWindow.newSessionFromSummary(sessionArg(sessionId)),
  };
}
