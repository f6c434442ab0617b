// What the code run inside the VS Code extension host (the integration suites, the in-host benches)
// shares: the extension's API, user settings changed for a while, the test agents of
// harness/agents as configured agents, and the editors on screen.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';

export const EXTENSION_ID = 'acp-native.acp-native';

/** Activates the extension (once; later calls return the same API). */
export async function getApi(): Promise<AcpNativeApi> {
  const ext = vscode.extensions.getExtension<AcpNativeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded`);
  return ext.activate();
}

/** Sets a user (global) setting: `acpNative.trace` → section `acpNative`, key `trace`; undefined removes it. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const [section, ...rest] = key.split('.');
  await vscode.workspace.getConfiguration(section).update(rest.join('.'), value, vscode.ConfigurationTarget.Global);
}

/** A user setting's own value (undefined when the user has not set it). */
function userValue(key: string): unknown {
  const [section, ...rest] = key.split('.');
  return vscode.workspace.getConfiguration(section).inspect(rest.join('.'))?.globalValue;
}

/**
 * User settings changed for a while: `set` remembers each key's value before its first change,
 * `restore` puts every one back, so what a suite or a bench changed does not reach the next one.
 */
export class ChangedSettings {
  private readonly before = new Map<string, unknown>();

  async set(key: string, value: unknown): Promise<void> {
    if (!this.before.has(key)) this.before.set(key, userValue(key));
    await setSetting(key, value);
  }

  async setAll(values: Readonly<Record<string, unknown>>): Promise<void> {
    for (const [key, value] of Object.entries(values)) await this.set(key, value);
  }

  async restore(): Promise<void> {
    const before = [...this.before].reverse();
    this.before.clear();
    for (const [key, value] of before) await setSetting(key, value);
  }
}

/**
 * A test agent as built next to the bundle that runs it: harness/agents/NAME.ts becomes
 * `../agents/NAME.js` beside the bundle's folder (out/test/agents for the suites in
 * out/test/integration, out/bench/agents for the benches in out/bench/host).
 */
export function testAgentPath(name: string): string {
  const file = path.join(__dirname, '..', 'agents', `${name}.js`);
  if (!fs.existsSync(file)) throw new Error(`test agent not built: ${file}`);
  return file;
}

/** An acpNative.agents entry. */
export interface AgentEntry {
  /** Its name (in titles and pickers, and for acpNative.defaultAgent). */
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Makes `entry` the only configured agent and the default one, and stops any running agent: the
 * next session starts it. Settings go through `settings` when given (to be restored).
 */
export async function useAgent(api: AcpNativeApi, entry: AgentEntry, settings?: ChangedSettings): Promise<void> {
  const set = settings ? (key: string, value: unknown) => settings.set(key, value) : setSetting;
  await set('acpNative.agents', [entry]);
  await set('acpNative.defaultAgent', entry.name);
  await api.stopAgent();
}

export interface TestAgent {
  readonly name: string;
  /** Its program in harness/agents, e.g. `thirdPartyAgent`. */
  readonly file: string;
  readonly args?: readonly string[];
  /** Added to its environment. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The acpNative.agents entry that runs a test agent with the extension host's Node. */
export function testAgentEntry({ name, file, args = [], env = {} }: TestAgent): AgentEntry {
  return { name, command: process.execPath, args: [testAgentPath(file), ...args], env: { ELECTRON_RUN_AS_NODE: '1', ...env } };
}

/** `useAgent` of a test agent. */
export function useTestAgent(api: AcpNativeApi, agent: TestAgent, settings?: ChangedSettings): Promise<void> {
  return useAgent(api, testAgentEntry(agent), settings);
}

export function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

export function diffTabs(): (vscode.Tab & { input: vscode.TabInputTextDiff })[] {
  return allTabs().filter((t): t is vscode.Tab & { input: vscode.TabInputTextDiff } => t.input instanceof vscode.TabInputTextDiff);
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
