import * as vscode from 'vscode';
import type { AgentSessions } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import type { Agents } from '../agents/agents';
import { BUNDLED_AGENT_NAME, type Config } from '../config';

type AgentPick = vscode.QuickPickItem & { agent: string; brain?: 'scripted' | 'llm'; addFromRegistry?: true };

/** The agents added from the ACP Registry (agents/registry), as the picker lists them. */
export interface AddedAgentList {
  readonly added: { all(): readonly { name: string; version: string; distribution: string }[] };
}

/**
 * Chooses the agent new sessions start with (the `acpNative.defaultAgent` setting, so the choice
 * lasts), and for the bundled agent its brain: scripted (offline) or LLM (any OpenAI-compatible
 * endpoint, written to `acpNative.bundledAgent.args`). Then starts a session with it.
 */
export async function pickAgent(deps: { config: Config; verbs: SessionVerbs; registry?: AddedAgentList | undefined }): Promise<void> {
  const { config } = deps;
  const llm = config.bundledAgentArgs.includes('llm');
  const current = config.defaultAgent;
  const items: AgentPick[] = [
    { label: 'Bundled agent: scripted', description: 'offline, /demo and /help', agent: BUNDLED_AGENT_NAME, brain: 'scripted', picked: current === BUNDLED_AGENT_NAME && !llm },
    { label: 'Bundled agent: LLM', description: 'any OpenAI-compatible endpoint', agent: BUNDLED_AGENT_NAME, brain: 'llm', picked: current === BUNDLED_AGENT_NAME && llm },
    ...config.agents.map((a) => ({ label: a.name, description: [a.command, ...a.args].join(' '), agent: a.name, picked: current === a.name })),
    // Added from the ACP Registry; an acpNative.agents entry of the same name takes their place.
    ...(deps.registry?.added.all() ?? [])
      .filter((a) => !config.agents.some((s) => s.name === a.name))
      .map((a) => ({ label: a.name, description: `${a.version} · ACP Registry (${a.distribution})`, agent: a.name, picked: current === a.name })),
  ];
  for (const item of items) if (item.picked) item.detail = 'current';
  items.push({ label: '$(add) Add Agent from the ACP Registry…', agent: '', addFromRegistry: true });
  const pick = await vscode.window.showQuickPick(items, { title: 'ACP: Choose Agent', placeHolder: 'The bundled agent, acpNative.agents and agents added from the ACP Registry' });
  if (!pick) return;
  if (pick.addFromRegistry) {
    await vscode.commands.executeCommand('acpNative.addAgent');
    return;
  }
  if (pick.brain === 'llm') {
    const args = await askLlmArgs(config.bundledAgentArgs);
    if (!args) return;
    await config.setBundledAgentArgs(args);
  } else if (pick.brain === 'scripted' && llm) {
    await config.setBundledAgentArgs(withoutLlmArgs(config.bundledAgentArgs));
  }
  await config.setDefaultAgent(pick.agent);
  // Other agents keep running; the bundled agent restarts when its brain changed (newSession).
  await deps.verbs.newSession(pick.agent);
}

type SessionAgentPick = vscode.QuickPickItem & { agent: string };

/**
 * **New Session with Agent…**: a session with any configured agent (the bundled one,
 * `acpNative.agents`, those added from the ACP Registry) next to the sessions already open. Starts
 * the agent if it is not running; stops none, and leaves the default agent as it is.
 */
export async function pickAgentForSession(deps: {
  config: Config;
  sessions: AgentSessions;
  verbs: SessionVerbs;
  agents: Agents;
  registry?: AddedAgentList | undefined;
}): Promise<string | undefined> {
  const { config, sessions } = deps;
  const running = new Set(deps.agents.runningKeys);
  const openCount = (agent: string) => sessions.topLevel.filter((s) => s.agentKey === agent).length;
  const detail = (agent: string) => {
    const parts = [agent === config.defaultAgent ? 'default' : undefined, running.has(agent) ? 'running' : undefined];
    const open = openCount(agent);
    if (open) parts.push(`${open} open session${open === 1 ? '' : 's'}`);
    return parts.filter(Boolean).join(' · ') || undefined;
  };
  const items: SessionAgentPick[] = [
    { label: 'Bundled agent', description: config.bundledAgentArgs.includes('llm') ? 'LLM' : 'scripted, offline', agent: BUNDLED_AGENT_NAME },
    ...config.agents.map((a) => ({ label: a.name, description: [a.command, ...a.args].join(' '), agent: a.name })),
    ...(deps.registry?.added.all() ?? [])
      .filter((a) => !config.agents.some((s) => s.name === a.name))
      .map((a) => ({ label: a.name, description: `${a.version} · ACP Registry`, agent: a.name })),
  ];
  for (const item of items) {
    const text = detail(item.agent);
    if (text) item.detail = text;
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: 'ACP: New Session with Agent',
    placeHolder: 'The agent for a new session; the sessions already open keep running',
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  return (await deps.verbs.newSession(pick.agent)).state.sessionId;
}

async function askLlmArgs(currentArgs: readonly string[]): Promise<string[] | undefined> {
  const valueOf = (flag: string) => {
    const at = currentArgs.indexOf(flag);
    return at >= 0 ? currentArgs[at + 1] : undefined;
  };
  const model = await vscode.window.showInputBox({ title: 'Model', prompt: 'Model name, e.g. gpt-4o-mini or qwen3:8b', value: valueOf('--model') ?? '', ignoreFocusOut: true });
  if (!model) return undefined;
  const baseUrl = await vscode.window.showInputBox({
    title: 'Base URL',
    prompt: 'OpenAI-compatible endpoint; empty for OpenAI. The key is set with "ACP: Set LLM API Key".',
    value: valueOf('--base-url') ?? '',
    ignoreFocusOut: true,
  });
  if (baseUrl === undefined) return undefined;
  return [...withoutLlmArgs(currentArgs), '--brain', 'llm', '--model', model, ...(baseUrl ? ['--base-url', baseUrl] : [])];
}

/** The arguments minus those that choose the brain, model and endpoint. */
export function withoutLlmArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--brain' || args[i] === '--model' || args[i] === '--base-url') i++;
    else out.push(args[i] ?? '');
  }
  return out;
}
