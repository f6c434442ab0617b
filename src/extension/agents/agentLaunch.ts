import * as vscode from 'vscode';
import * as path from 'node:path';
import { BUNDLED_AGENT_NAME, type Config } from '../config';
import type { AgentLaunch } from '../wire/agentProcess';
import type { AddedAgents } from './registry/addedAgents';
import type { SignInCredentials } from './signIn/credentials';
import type { LlmApiKey } from './signIn/llmApiKey';
import { workspaceRoots } from '../workspace/workspaceRoots';

/**
 * How to start an agent, by its settings name: the bundled agent, an `acpNative.agents` entry,
 * or an agent added from the ACP Registry (an `acpNative.agents` entry of the same name wins).
 * What an agent needs to sign in (the variables of an `env_var` method, the bundled agent's LLM
 * key) comes from secret storage, never from settings, and is never logged.
 */
export class AgentLaunches {
  constructor(
    private readonly deps: {
      config: Config;
      credentials: SignInCredentials;
      llmApiKey: LlmApiKey;
      added: AddedAgents;
      /** The extension's own files (dist/agent.js) and storage (the bundled agent's state). */
      extension: Pick<vscode.ExtensionContext, 'asAbsolutePath' | 'storageUri' | 'globalStorageUri'>;
    },
  ) {
    // Loaded before the first launch can need them (a launch reads them synchronously).
    void deps.credentials.preload([deps.config.defaultAgent, ...deps.config.agents.map((a) => a.name)]);
  }

  /** An agent of that name can be started: the bundled one, an `acpNative.agents` entry or one added from the ACP Registry. */
  knows(name: string): boolean {
    return name === BUNDLED_AGENT_NAME || this.deps.config.agents.some((a) => a.name === name) || this.deps.added.byName(name) !== undefined;
  }

  resolve(wanted: string): AgentLaunch {
    if (!vscode.workspace.isTrusted) {
      throw new Error('This workspace is not trusted. Agents run programs and change files, so ACP Native starts none here until you trust the workspace.');
    }
    const { cwd } = workspaceRoots();
    if (wanted === BUNDLED_AGENT_NAME) return this.bundled(cwd);
    const { config } = this.deps;
    const agent = config.agents.find((a) => a.name === wanted);
    // Variables the user gave to sign in (env_var methods) come from secret storage.
    const signInEnv = this.deps.credentials.launchEnv(wanted);
    if (agent) return { name: agent.name, command: agent.command, args: agent.args, env: { ...agent.env, ...signInEnv }, cwd };
    const added = this.deps.added.byName(wanted);
    if (added) {
      // The user's `acpNative.registry.overrides` apply on top of the registry's command line.
      const override = config.registryOverride(added.id);
      const env = { ...added.env, ...override.env, ...signInEnv };
      return { name: wanted, command: added.command, args: [...added.args, ...override.args], env, cwd };
    }
    throw new Error(`No agent named "${wanted}" in the setting acpNative.agents or among the agents added from the ACP Registry.`);
  }

  private bundled(cwd: string): AgentLaunch {
    const { extension } = this.deps;
    const stateDir = path.join((extension.storageUri ?? extension.globalStorageUri).fsPath, 'agent-state');
    return {
      name: 'ACP Native agent',
      // Node under code-server, Electron under desktop VS Code: ELECTRON_RUN_AS_NODE makes both Node.
      command: process.execPath,
      args: [extension.asAbsolutePath('dist/agent.js'), '--state-dir', stateDir, ...this.deps.config.bundledAgentArgs],
      env: { ELECTRON_RUN_AS_NODE: '1', ...this.deps.llmApiKey.env() },
      cwd,
    };
  }
}
