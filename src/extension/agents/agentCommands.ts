import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { CommandTable } from '../base/commandTable';
import type { SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { AgentExitedError } from '../wire/agentConnection';
import type { Agents } from './agents';
import type { SkippedServer } from './mcp/model/mcpConfig';
import { summarize, type McpServerService } from './mcp/mcpServerService';
import type { ProtocolTrace } from './protocolTrace';
import type { AgentRegistry } from './registry/agentRegistry';
import { isAuthRequired, StillNotSignedInError } from './signIn/model/authMethods';
import type { LlmApiKey } from './signIn/llmApiKey';
import type { SignInService } from './signIn/signInService';

/** The commands on the agents: stop, restart, add and remove, sign in and out, their log, trace and MCP servers. */
export function agentCommands(deps: {
  agents: Agents;
  verbs: SessionVerbs;
  sessions: { readonly active: SessionRecord | undefined };
  registry: AgentRegistry;
  signIn: SignInService;
  llmApiKey: LlmApiKey;
  mcpServers: McpServerService;
  trace: ProtocolTrace;
  log: { show(): void };
}): CommandTable {
  const { agents, registry, signIn, mcpServers } = deps;
  return {
    'acpNative.stopAgent': () => agents.stop(),
    'acpNative.restartAgent': async () => (await deps.verbs.restart()).state.sessionId,
    'acpNative.showLog': () => deps.log.show(),
    'acpNative.addAgent': () => registry.pick(),
    'acpNative.removeAgent': () => registry.pickToRemove(),
    'acpNative.setLlmApiKey': () => deps.llmApiKey.prompt(),
    'acpNative.showTrace': () => deps.trace.show(),
    'acpNative.showMcpServers': async () => {
      // What the active agent got at its latest session start; with no agent, what one would get.
      const sent = mcpServers.report(deps.sessions.active?.connection);
      const report = sent ?? { agentName: undefined, ...(await previewMcpServers(mcpServers)) };
      mcpServers.show(report, sent !== undefined);
      // Names and reasons only (values may be secrets), for callers such as tests.
      return { agentName: report.agentName, servers: report.servers.map(summarize), skipped: report.skipped };
    },
    'acpNative.signIn': async (methodId?: unknown) => {
      const signedIn = await signIn.signIn(typeof methodId === 'string' ? methodId : undefined);
      if (signedIn) void vscode.window.showInformationMessage(`ACP: Signed in with ${signedIn.methodName}.`);
    },
    'acpNative.signOut': async () => {
      const { agentName, loggedOut, forgot } = await signIn.signOut();
      const what = [loggedOut ? 'the agent logged out' : undefined, forgot ? 'its stored credentials were forgotten' : undefined].filter(Boolean);
      void vscode.window.showInformationMessage(
        what.length ? `ACP: Signed out of ${agentName}: ${what.join('; ')}.` : `ACP: ${agentName} cannot log out, and ACP Native stored no credentials for it.`,
      );
    },
  };
}

async function previewMcpServers(mcpServers: McpServerService): Promise<{ servers: McpServer[]; skipped: SkippedServer[] }> {
  const configured = await mcpServers.configured();
  return { servers: configured.resolved.map((r) => r.server), skipped: configured.skipped };
}

/** What a failed command's error message offers, by what failed: the agent died, or it wants a sign-in. */
export function errorActions(error: unknown): { label: string; command?: string }[] {
  const showLog = { label: 'Show Log' };
  if (error instanceof AgentExitedError) return [{ label: 'Restart Agent', command: 'acpNative.restartAgent' }, showLog];
  if (error instanceof StillNotSignedInError || isAuthRequired(error)) return [{ label: 'Sign In', command: 'acpNative.signIn' }, showLog];
  return [showLog];
}
