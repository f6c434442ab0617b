/**
 * The MCP servers agents are given: read at each session start from `acpNative.mcpServers` and,
 * with `acpNative.mcp.useVSCodeServers`, from each trusted workspace folder's `.vscode/mcp.json`
 * and the user's `mcp` setting; `${input:ID}` answers are asked once and kept in SecretStorage.
 * The logic is in agents/mcp/model/mcpConfig.ts and agents/mcp/model/mcpSelection.ts; this adapter only reads and asks.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { Config } from '../../config';
import type { AgentConnection } from '../../wire/agentConnection';
import { parseAcpNativeServers, parseMcpJsonText, parseVsCodeMcp, type McpInputSpec, type ParsedSource, type SkippedServer } from './model/mcpConfig';
import { combineSources, inputKey, inputsUsed, resolveCandidate, serversForAgent, toAcpServer } from './model/mcpSelection';
import { errorMessage, type Logger } from '../../base/log';
import { Disposable } from '../../base/lifecycle';

/** What one agent was sent at its latest session start, and what was left out. */
export interface McpServersReport {
  agentName: string | undefined;
  servers: McpServer[];
  skipped: SkippedServer[];
}

/** A server as shown to the user and to callers of the command: names only, never values. */
export interface McpServerSummary {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /** Names of its environment variables or headers (their values may be secrets). */
  keys: string[];
}

const SECRET_PREFIX = 'acpNative.mcpInput:';

export class McpServerService extends Disposable {
  /** The Show MCP Servers list on screen, if any. */
  private pick: vscode.QuickPick<vscode.QuickPickItem> | undefined;
  private readonly reports = new WeakMap<AgentConnection, McpServersReport>();
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly deps: {
      config: Config;
      log: Logger;
      secrets: vscode.SecretStorage;
      /** The folder of the session (first workspace folder): `${workspaceFolder}` outside mcp.json. */
      firstFolder: () => string | undefined;
    },
  ) {
    super();
    this._register({ dispose: () => this.pick?.dispose() });
  }

  /** ACP: Show MCP Servers — what the active agent got (or a new session would get), and what was left out and why. */
  show(report: McpServersReport, running: boolean): void {
    this.pick?.dispose();
    this.pick = mcpServersPick(report, running);
  }

  /** The servers for a session of this agent (`session/new`, `load`, `resume`); never throws. */
  async serversFor(connection: AgentConnection): Promise<{ servers: McpServer[]; skipped: SkippedServer[] }> {
    let result: { servers: McpServer[]; skipped: SkippedServer[] };
    try {
      const configured = await this.configured();
      const forAgent = serversForAgent(configured.resolved, connection.initializeResponse.agentCapabilities?.mcpCapabilities, connection.name);
      result = { servers: forAgent.servers, skipped: [...configured.skipped, ...forAgent.skipped] };
    } catch (error) {
      this.deps.log.error(`Reading the MCP servers failed; the session starts without them: ${errorMessage(error)}`);
      result = { servers: [], skipped: [] };
    }
    for (const s of result.skipped) this.deps.log.warn(`MCP server "${s.name}" (${s.source}) not sent to "${connection.name}": ${s.reason}.`);
    if (result.servers.length > 0) this.deps.log.info(`MCP servers sent to "${connection.name}": ${result.servers.map((s) => s.name).join(', ')}.`);
    this.reports.set(connection, { agentName: connection.name, ...result });
    return result;
  }

  /** What the agent got at its latest session start. */
  report(connection: AgentConnection | undefined): McpServersReport | undefined {
    return connection ? this.reports.get(connection) : undefined;
  }

  /** Every configured server, resolved, before any agent's capabilities are applied. */
  async configured(): Promise<{ resolved: { server: McpServer; source: string }[]; skipped: SkippedServer[] }> {
    const configuration = combineSources(await this.sources());
    const inputs = await this.answers(configuration.candidates, configuration.inputs);
    const ctx = { userHome: os.homedir(), env: process.env, inputs, pathSeparator: path.sep };
    const resolved: { server: McpServer; source: string }[] = [];
    const skipped = [...configuration.skipped];
    for (const candidate of configuration.candidates) {
      const r = resolveCandidate(candidate, ctx);
      if (r.ok) resolved.push({ server: toAcpServer(r.server), source: candidate.source.label });
      else skipped.push({ name: candidate.name, source: candidate.source.label, reason: r.reason });
    }
    return { resolved, skipped };
  }

  private async sources(): Promise<ParsedSource[]> {
    const { config } = this.deps;
    const first = this.deps.firstFolder();
    const sources: ParsedSource[] = [
      parseAcpNativeServers(config.mcpServers, { label: 'acpNative.mcpServers', ...(first ? { folder: first } : {}), inputScope: 'acpNative' }),
    ];
    if (!config.useVSCodeServers) return sources;
    // A workspace's own file could name any program: read only once the workspace is trusted.
    if (vscode.workspace.isTrusted) {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        if (folder.uri.scheme !== 'file') continue;
        const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
        const text = await readText(file);
        if (text !== undefined) sources.push(parseMcpJsonText(text, { label: file.fsPath, folder: folder.uri.fsPath, inputScope: file.fsPath }));
      }
    }
    const user = config.vscodeUserMcp;
    sources.push(parseVsCodeMcp(user, { label: 'user settings (mcp)', ...(first ? { folder: first } : {}), inputScope: 'user' }));
    return sources;
  }

  /** Answers to the `${input:ID}`s the servers use: stored ones, else asked (once at a time). */
  private async answers(candidates: Parameters<typeof inputsUsed>[0][], specs: McpInputSpec[]): Promise<Map<string, string>> {
    const answers = new Map<string, string>();
    for (const candidate of candidates) {
      for (const id of inputsUsed(candidate)) {
        const key = inputKey(candidate.source.inputScope, id);
        if (answers.has(key)) continue;
        const spec = specs.find((s) => s.scope === candidate.source.inputScope && s.id === id);
        if (spec === undefined) continue;
        const value = await this.answer(key, spec, candidate.name);
        if (value !== undefined) answers.set(key, value);
      }
    }
    return answers;
  }

  private answer(key: string, spec: McpInputSpec, serverName: string): Promise<string | undefined> {
    let pending = this.asking.get(key);
    if (pending === undefined) {
      pending = this.storedOrAsk(key, spec, serverName).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  private async storedOrAsk(key: string, spec: McpInputSpec, serverName: string): Promise<string | undefined> {
    const stored = await this.deps.secrets.get(SECRET_PREFIX + key);
    if (stored !== undefined) return stored;
    const title = `MCP server "${serverName}": ${spec.id}`;
    const value =
      spec.type === 'pickString'
        ? await vscode.window.showQuickPick(spec.options ?? [], { title, placeHolder: spec.description, ignoreFocusOut: true })
        : await vscode.window.showInputBox({
            title,
            prompt: spec.description,
            password: spec.password,
            ignoreFocusOut: true,
            ...(spec.default !== undefined ? { value: spec.default } : {}),
          });
    if (value === undefined) return undefined;
    await this.deps.secrets.store(SECRET_PREFIX + key, value);
    return value;
  }
}

async function readText(file: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch {
    return undefined;
  }
}

/** Names only: environment values and headers often carry tokens. */
export function summarize(server: McpServer): McpServerSummary {
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { name: server.name, transport: server.type, keys: server.headers.map((h) => h.name) };
  }
  const stdio = server as Extract<McpServer, { command: string }>;
  return { name: stdio.name, transport: 'stdio', keys: stdio.env.map((e) => e.name) };
}

function mcpServersPick(report: McpServersReport, running: boolean): vscode.QuickPick<vscode.QuickPickItem> {
  const pick = vscode.window.createQuickPick();
  pick.title = running ? `MCP servers sent to "${report.agentName ?? 'the agent'}"` : 'MCP servers (no agent running: what a new session would get)';
  const items: vscode.QuickPickItem[] = [];
  items.push({ label: 'Sent', kind: vscode.QuickPickItemKind.Separator });
  if (report.servers.length === 0) items.push({ label: 'None' });
  for (const server of report.servers) {
    const s = summarize(server);
    items.push({ label: `$(plug) ${s.name}`, description: s.transport, ...(s.keys.length ? { detail: `${s.transport === 'stdio' ? 'env' : 'headers'}: ${s.keys.join(', ')}` } : {}) });
  }
  if (report.skipped.length > 0) {
    items.push({ label: 'Skipped', kind: vscode.QuickPickItemKind.Separator });
    for (const s of report.skipped) items.push({ label: `$(circle-slash) ${s.name}`, description: s.source, detail: s.reason });
  }
  pick.items = items;
  pick.matchOnDetail = true;
  // Disposing the pick disposes its own listeners.
  pick.onDidHide(() => pick.dispose());
  pick.show();
  return pick;
}
