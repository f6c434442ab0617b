import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentSessions } from '../../session/agentSessions';
import type { SessionVerbs } from '../../session/sessionVerbs';
import type { Agents } from '../agents';
import { BUNDLED_AGENT_NAME, type Config } from '../../config';
import { compareVersions, registryPlatform, updatesAvailable, usableDistributions, type RegistryAgent } from './model/registry';
import { errorMessage, type Logger } from '../../base/log';
import { assertNever } from '../../../protocol/assertNever';
import { Disposable } from '../../base/lifecycle';
import type { AddedAgents } from './addedAgents';
import { RegistryInstaller } from './installer';
import { RegistrySource, type LoadedRegistry } from './registrySource';

export interface RegistryAgentSummary {
  id: string;
  name: string;
  version: string;
  /** The distributions usable on this computer, best first (`binary`, `npx`, `uvx`). */
  distributions: string[];
}

type CataloguePick = vscode.QuickPickItem & { agent: RegistryAgent };

/**
 * The ACP Registry as the agent catalogue: **ACP: Add Agent…**, installs (with a progress
 * notification), the added agents' launch commands, and update offers.
 */
export class AgentRegistry extends Disposable {
  readonly source: RegistrySource;
  readonly installer: RegistryInstaller;
  readonly added: AddedAgents;
  private readonly platform = registryPlatform(process.platform, process.arch);
  /** Updates already offered this session (agent id → version), so a refresh does not nag. */
  private readonly offered = new Map<string, string>();

  constructor(
    private readonly deps: {
      extensionContext: vscode.ExtensionContext;
      config: Config;
      sessions: AgentSessions;
      verbs: SessionVerbs;
      agents: Agents;
      /** The agents added from the registry (agents/agentLaunch.ts starts them). */
      added: AddedAgents;
      log: Logger;
    },
  ) {
    super();
    const { extensionContext: ctx, config, log } = deps;
    const storage = ctx.globalStorageUri.fsPath;
    this.added = deps.added;
    this.source = new RegistrySource({
      cacheDir: path.join(storage, 'registry'),
      snapshotFile: ctx.asAbsolutePath('resources/registry-snapshot.json'),
      url: () => config.registryUrl,
      log,
      onBackgroundRefresh: (loaded) => void this.offerUpdates(loaded),
    });
    this.installer = new RegistryInstaller({ root: path.join(storage, 'agents'), log });
    // Added agents get their update offers without opening the catalogue (cache first, no wait).
    if (this.added.all().length > 0) void this.source.load().then((loaded) => this.offerUpdates(loaded), () => undefined);
  }

  async catalogue(): Promise<RegistryAgentSummary[]> {
    const { registry } = await this.source.load();
    return registry.agents.map((a) => ({ id: a.id, name: a.name, version: a.version, distributions: usableDistributions(a, this.platform) }));
  }

  /** Installs the registry agent as needed and adds it; returns its name as Choose Agent lists it. */
  async add(id: string): Promise<string> {
    const { registry } = await this.source.load();
    const agent = registry.agents.find((a) => a.id === id);
    if (!agent) throw new Error(`The ACP Registry has no agent "${id}".`);
    return this.install(agent);
  }

  private async install(agent: RegistryAgent): Promise<string> {
    const installed = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `ACP: Adding ${agent.name} ${agent.version}`, cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort(new Error('Cancelled.')));
        let reported = 0;
        try {
          return await this.installer.install(
            agent,
            ({ message, fraction }) => {
              const increment = fraction === undefined ? undefined : Math.max(0, (fraction - reported) * 100);
              if (fraction !== undefined) reported = fraction;
              progress.report({ ...(message ? { message } : {}), ...(increment ? { increment } : {}) });
            },
            abort.signal,
          );
        } finally {
          cancel.dispose();
        }
      },
    );
    await this.added.put(installed);
    this.deps.log.info(`ACP Registry: added ${installed.name} ${installed.version} (${installed.distribution}: ${[installed.command, ...installed.args].join(' ')})`);
    return installed.name;
  }

  /** Makes the agent the default (`acpNative.defaultAgent`) and starts a session with it; the agents already running keep running. */
  async use(name: string): Promise<void> {
    const known = name === BUNDLED_AGENT_NAME || this.deps.config.agents.some((a) => a.name === name) || this.added.byName(name) !== undefined;
    if (!known) throw new Error(`No agent named "${name}": not in acpNative.agents and not added from the ACP Registry.`);
    await this.deps.config.setDefaultAgent(name);
    await this.deps.verbs.newSession(name);
  }

  /**
   * Removes an agent added from the registry: its open sessions close, its process stops, its
   * installed files are deleted and Choose Agent no longer lists it. When it was the default
   * agent, the bundled agent is the default again.
   */
  async remove(id: string): Promise<void> {
    const added = this.added.byId(id);
    if (!added) throw new Error(`No agent "${id}" was added from the ACP Registry.`);
    const { sessions, verbs, config, log } = this.deps;
    // Stopped first: its sessions then close here without asking a process about to go to free them.
    await this.deps.agents.stop(added.name);
    for (const session of sessions.topLevel.filter((s) => s.agentKey === added.name)) await verbs.closeSession(session.state.sessionId);
    await this.added.remove(id);
    await this.installer.uninstall(id);
    if (config.defaultAgent === added.name) await config.resetDefaultAgent();
    log.info(`ACP Registry: removed ${added.name} ${added.version}`);
  }

  /** **ACP: Remove Agent…**: the added agents in a QuickPick; the one picked is removed after a confirmation. */
  async pickToRemove(): Promise<string | undefined> {
    const added = this.added.all();
    if (added.length === 0) {
      void vscode.window.showInformationMessage('ACP: No agent was added from the ACP Registry. Agents in the acpNative.agents setting are removed there.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      added.map((a) => ({ label: a.name, description: `${a.version} · ${a.distribution}`, detail: a.description, agent: a })),
      { title: 'ACP: Remove Agent', placeHolder: 'Pick an agent added from the ACP Registry to remove' },
    );
    if (!picked) return undefined;
    const open = this.deps.sessions.topLevel.filter((s) => s.agentKey === picked.agent.name).length;
    const consequence = open > 0 ? ` Its ${open === 1 ? 'open session closes' : `${open} open sessions close`}.` : '';
    const confirm = await vscode.window.showWarningMessage(`Remove ${picked.agent.name} and delete its installed files?${consequence}`, { modal: true }, 'Remove');
    if (confirm !== 'Remove') return undefined;
    await this.remove(picked.agent.id);
    return picked.agent.name;
  }

  /** **ACP: Add Agent…**: the catalogue in a QuickPick; the agent picked is installed, added and started. */
  async pick(): Promise<string | undefined> {
    const quickPick = vscode.window.createQuickPick<CataloguePick>();
    try {
      quickPick.title = 'ACP: Add Agent from the ACP Registry';
      quickPick.placeholder = 'Loading the ACP Registry…';
      quickPick.matchOnDescription = true;
      quickPick.matchOnDetail = true;
      quickPick.busy = true;
      quickPick.show();
      const loaded = await this.source.load();
      quickPick.items = this.items(loaded);
      quickPick.placeholder = this.origin(loaded);
      quickPick.busy = false;
      const picked = await new Promise<CataloguePick | undefined>((resolve) => {
        quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
        quickPick.onDidHide(() => resolve(undefined));
      });
      quickPick.hide();
      if (!picked) return undefined;
      const name = await this.install(picked.agent);
      await this.use(name);
      return name;
    } finally {
      quickPick.dispose();
    }
  }

  private items(loaded: LoadedRegistry): CataloguePick[] {
    return [...loaded.registry.agents]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((agent) => {
        const added = this.added.byId(agent.id);
        const kinds = usableDistributions(agent, this.platform);
        const state = !added ? '' : compareVersions(agent.version, added.version) > 0 ? ` · update from ${added.version}` : ' · added';
        return {
          label: agent.name,
          description: `${agent.version} · ${agent.license}${state}`,
          detail: `${agent.description}${kinds.length ? ` — ${kinds[0]}` : ` — not available for ${this.platform ?? process.platform}`}`,
          iconPath: new vscode.ThemeIcon(added ? (state.includes('update') ? 'arrow-circle-up' : 'check') : kinds[0] === 'binary' ? 'file-binary' : 'package'),
          agent,
        };
      });
  }

  private origin(loaded: LoadedRegistry): string {
    const day = loaded.date.toISOString().slice(0, 10);
    switch (loaded.origin) {
      case 'network':
        return 'Pick an agent to add and start · registry fetched just now';
      case 'cache':
        return `${loaded.offlineReason ? 'Offline · ' : ''}Pick an agent to add and start · registry of ${loaded.date.toLocaleString()}`;
      case 'snapshot':
        // The snapshot is as old as the extension: its date says how old the list may be.
        return `Offline · registry snapshot of ${day} · pick an agent to add and start`;
      default:
        assertNever(loaded.origin, 'registry origin');
    }
  }

  private async offerUpdates(loaded: LoadedRegistry): Promise<void> {
    for (const { installed: added, latest } of updatesAvailable(this.added.all(), loaded.registry)) {
      if (this.offered.get(added.id) === latest.version) continue;
      this.offered.set(added.id, latest.version);
      const choice = await vscode.window.showInformationMessage(`ACP: ${added.name} ${latest.version} is available (you have ${added.version}).`, 'Update');
      if (choice !== 'Update') continue;
      try {
        await this.install(latest);
        void vscode.window.showInformationMessage(`ACP: ${added.name} updated to ${latest.version}; it is used from the next start.`);
      } catch (error) {
        void vscode.window.showErrorMessage(`ACP: ${errorMessage(error)}`);
      }
    }
  }
}
