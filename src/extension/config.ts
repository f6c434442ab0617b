import * as vscode from 'vscode';
import { promptLimit } from './session/model/promptSize';
import type { AutoApprove } from './permissions/model/autoApprove';

/** An agent from `acpNative.agents`. */
export interface AgentSetting {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export type DiffAutoOpen = 'onComplete' | 'onClick';

export const BUNDLED_AGENT_NAME = 'bundled';

const SECTION = 'acpNative';
const KEYS = {
  agents: 'agents',
  defaultAgent: 'defaultAgent',
  diffAutoOpen: 'diff.autoOpen',
  autoApprove: 'permissions.autoApprove',
  bundledAgentArgs: 'bundledAgent.args',
  outsideWorkspace: 'files.outsideWorkspace',
  mcpServers: 'mcpServers',
  useVSCodeServers: 'mcp.useVSCodeServers',
  registryUrl: 'registry.url',
  registryOverrides: 'registry.overrides',
  followAlong: 'followAlong',
  adaptToWindowLag: 'performance.adaptToWindowLag',
  promptMaxBytes: 'prompt.maxBytes',
  trace: 'trace',
  checkpointsEnabled: 'checkpoints.enabled',
  checkpointsMaxFileSizeMB: 'checkpoints.maxFileSizeMB',
  checkpointsTimeoutSeconds: 'checkpoints.timeoutSeconds',
} as const;

export type TraceSetting = 'off' | 'messages' | 'verbose';

export type SettingKey = keyof typeof KEYS;

/** The official ACP Registry (format: the registry repository's FORMAT.md). */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** Extra arguments and environment for an agent added from the registry, by registry id. */
export interface RegistryOverride {
  args: string[];
  env: Record<string, string>;
}

export type OutsideWorkspace = 'ask' | 'refuse';

/** Typed access to the `acpNative.*` settings: one getter per setting, read fresh each time. */
export class Config {
  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION);
  }

  get agents(): AgentSetting[] {
    const raw = this.section.get<unknown[]>(KEYS.agents, []);
    return raw.flatMap((entry) => {
      if (typeof entry !== 'object' || entry === null) return [];
      const e = entry as Record<string, unknown>;
      if (typeof e.name !== 'string' || typeof e.command !== 'string') return [];
      const args = Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === 'string') : [];
      const env: Record<string, string> = {};
      if (typeof e.env === 'object' && e.env !== null) {
        for (const [k, v] of Object.entries(e.env)) if (typeof v === 'string') env[k] = v;
      }
      return [{ name: e.name, command: e.command, args, env }];
    });
  }

  get defaultAgent(): string {
    return this.section.get<string>(KEYS.defaultAgent, BUNDLED_AGENT_NAME) || BUNDLED_AGENT_NAME;
  }

  get diffAutoOpen(): DiffAutoOpen {
    return this.section.get<DiffAutoOpen>(KEYS.diffAutoOpen, 'onComplete') === 'onClick' ? 'onClick' : 'onComplete';
  }

  get autoApprove(): AutoApprove {
    const value = this.section.get<string>(KEYS.autoApprove, 'never');
    return value === 'reads' || value === 'edits' || value === 'everything' ? value : 'never';
  }

  /** What to do when the agent reads, writes or runs outside the workspace folders. */
  get outsideWorkspace(): OutsideWorkspace {
    return this.section.get<string>(KEYS.outsideWorkspace, 'ask') === 'refuse' ? 'refuse' : 'ask';
  }

  /** Extra arguments for the bundled agent (e.g. `--brain llm`). */
  get bundledAgentArgs(): string[] {
    return this.section.get<string[]>(KEYS.bundledAgentArgs, []).filter((a) => typeof a === 'string');
  }

  /** `acpNative.mcpServers` as written; agents/mcp/model/mcpConfig.ts reads it (and says what it cannot use). */
  get mcpServers(): unknown {
    return this.section.get<unknown>(KEYS.mcpServers, []);
  }

  /** Also pass the MCP servers VS Code knows (`.vscode/mcp.json`, the `mcp` user setting). */
  get useVSCodeServers(): boolean {
    return this.section.get<boolean>(KEYS.useVSCodeServers, true) !== false;
  }

  /**
   * VS Code's own `mcp` user setting (`{servers, inputs}`). Read through `inspect`: in VS Code 1.99
   * `get('servers')` answers the setting's built-in example when the user configured nothing.
   */
  get vscodeUserMcp(): { servers?: unknown; inputs?: unknown } {
    const mcp = vscode.workspace.getConfiguration('mcp');
    return { servers: mcp.inspect('servers')?.globalValue, inputs: mcp.inspect('inputs')?.globalValue };
  }

  /** Protocol tracing to the "ACP Trace" channel. */
  get trace(): TraceSetting {
    const value = this.section.get<string>(KEYS.trace, 'off');
    return value === 'messages' || value === 'verbose' ? value : 'off';
  }

  /** Where the agent catalogue (ACP: Add Agent…) comes from. */
  get registryUrl(): string {
    return this.section.get<string>(KEYS.registryUrl, DEFAULT_REGISTRY_URL).trim() || DEFAULT_REGISTRY_URL;
  }

  /** `acpNative.registry.overrides`: `{ "<id>": { "args": [...], "env": {...} } }`, malformed parts ignored. */
  registryOverride(id: string): RegistryOverride {
    const all = this.section.get<Record<string, unknown>>(KEYS.registryOverrides, {});
    const entry = typeof all === 'object' && all !== null ? all[id] : undefined;
    if (typeof entry !== 'object' || entry === null) return { args: [], env: {} };
    const e = entry as Record<string, unknown>;
    const args = Array.isArray(e.args) ? e.args.filter((a): a is string => typeof a === 'string') : [];
    const env: Record<string, string> = {};
    if (typeof e.env === 'object' && e.env !== null) {
      for (const [k, v] of Object.entries(e.env)) if (typeof v === 'string') env[k] = v;
    }
    return { args, env };
  }

  /** The most a prompt (text and attachments, as JSON) may weigh before it is refused unsent. */
  get promptMaxBytes(): number {
    return promptLimit(this.section.get<unknown>(KEYS.promptMaxBytes));
  }

  /** The workspace checkpoints taken at each prompt (`checkpoints/`). */
  get checkpoints(): { enabled: boolean; maxFileBytes: number; timeoutMs: number } {
    const mb = this.section.get<number>(KEYS.checkpointsMaxFileSizeMB, 50);
    const seconds = this.section.get<number>(KEYS.checkpointsTimeoutSeconds, 20);
    return {
      enabled: this.section.get<boolean>(KEYS.checkpointsEnabled, true) !== false,
      maxFileBytes: (typeof mb === 'number' && mb > 0 ? mb : 50) * 1024 * 1024,
      timeoutMs: (typeof seconds === 'number' && seconds > 0 ? seconds : 20) * 1000,
    };
  }

  /** Draw less while the window is behind (a storm of tool calls); off: always the normal cadence. */
  get adaptToWindowLag(): boolean {
    return this.section.get<boolean>(KEYS.adaptToWindowLag, true) !== false;
  }

  /** Show the file and line the agent works on as it goes. */
  get followAlong(): boolean {
    return this.section.get<boolean>(KEYS.followAlong, false) === true;
  }

  /** Makes `name` the agent new sessions start with; the choice lasts (see `update`). */
  setDefaultAgent(name: string): Thenable<void> {
    return this.update('defaultAgent', name);
  }

  /** Forgets the chosen default agent: new sessions start with the bundled one again. */
  resetDefaultAgent(): Thenable<void> {
    return this.update('defaultAgent', undefined);
  }

  setBundledAgentArgs(args: readonly string[]): Thenable<void> {
    return this.update('bundledAgentArgs', [...args]);
  }

  affects(event: vscode.ConfigurationChangeEvent, key: SettingKey): boolean {
    return event.affectsConfiguration(`${SECTION}.${KEYS[key]}`);
  }

  /** Calls `listener` when any of `keys` changes. The caller registers the returned disposable. */
  onDidChange(keys: readonly SettingKey[], listener: () => void): vscode.Disposable {
    return vscode.workspace.onDidChangeConfiguration((event) => {
      if (keys.some((key) => this.affects(event, key))) listener();
    });
  }

  /**
   * Writes where the effective value comes from: a workspace that sets the value keeps its own
   * (a user-level write would be shadowed by it and look ignored); otherwise the user settings.
   */
  private update(key: SettingKey, value: unknown): Thenable<void> {
    const inspected = this.section.inspect(KEYS[key]);
    const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    return this.section.update(KEYS[key], value, target);
  }
}
