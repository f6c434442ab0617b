import * as vscode from 'vscode';
import { assertNever } from '../../../protocol/assertNever';
import type { AgentConnection } from '../../wire/agentConnection';
import type { Agents } from '../agents';
import {
  apiKeyForms,
  authenticateMeta,
  checkBaseUrl,
  credentialsFromSecret,
  credentialsNeeded,
  methodHint,
  parseHeaders,
  terminalLoginProgram,
  type ApiKeyForm,
  type AuthMethod,
  type Credentials,
  type EnvVarMethod,
  type SignedIn,
  type TerminalMethod,
} from './model/authMethods';
import { errorMessage, type Logger } from '../../base/log';
import { Disposable } from '../../base/lifecycle';
import type { SignInCredentials } from './credentials';

/** The user dismissed a question: nothing to report, nothing changed. */
class SignInDismissed extends Error {
  constructor() {
    super('Sign-in was cancelled.');
  }
}

/**
 * Signs the user in to an agent, every way agents ask for it: a login program in a real terminal,
 * variables in the agent's environment (a restart), or `authenticate` with a key or a gateway.
 * Called by the sign-in retry (signInRetry.ts) when a request is refused with `-32000`, and by
 * the Sign In / Sign Out commands and the API.
 */
export class SignInService extends Disposable {
  readonly credentials: SignInCredentials;
  /** One sign-in at a time: requests refused together share it. */
  private pending: Promise<SignedIn | undefined> | undefined;
  /** The key's form each agent accepted (by its launch name, the settings entry's). */
  private readonly keyForms = new Map<string, ApiKeyForm>();

  constructor(
    private readonly deps: {
      agents: Agents;
      credentials: SignInCredentials;
      log: Logger;
    },
  ) {
    super();
    this.credentials = deps.credentials;
  }

  /**
   * The agent refused a request until the user signs in. With credentials stored for one of its
   * methods, signs in with them without asking; otherwise asks how. Undefined: the user gave up.
   */
  onAuthRequired(connection: AgentConnection, error: unknown): Promise<SignedIn | undefined> {
    if (!this.pending) {
      this.pending = this.signInAfterRefusal(connection, error).finally(() => (this.pending = undefined));
    }
    return this.pending;
  }

  /**
   * ACP: Sign In and the API. With a method id, that method (with `secret` instead of asking,
   * when given); without, the user picks. Resolves with the method used, undefined when dismissed.
   */
  async signIn(methodId?: string, secret?: Record<string, string>): Promise<SignedIn | undefined> {
    const connection = await this.deps.agents.connect();
    if (!connection.authMethods.length) throw new Error(`Agent "${connection.name}" offers no way to sign in.`);
    let method: AuthMethod | undefined;
    if (methodId !== undefined) {
      method = connection.authMethods.find((m) => m.id === methodId);
      if (!method) {
        const offered = connection.authMethods.map((m) => m.id).join(', ');
        throw new Error(`Agent "${connection.name}" has no sign-in method "${methodId}" (it offers: ${offered}).`);
      }
    } else {
      method = await this.pickMethod(connection);
      if (!method) return undefined;
    }
    try {
      const credentials = credentialsFromSecret(method, secret) ?? (await this.askCredentials(connection.name, method));
      await this.perform(connection, method, credentials);
    } catch (error) {
      if (error instanceof SignInDismissed) return undefined;
      throw error;
    }
    return { methodName: method.name };
  }

  /** ACP: Sign Out: `logout` when the agent supports it, and forget what was stored for it. */
  async signOut(): Promise<{ agentName: string; loggedOut: boolean; forgot: boolean }> {
    const { agents } = this.deps;
    const connection = agents.runningAgent ?? (await agents.connect());
    const agentName = connection.name;
    if (connection.canLogout) await connection.logout();
    const forgotten = await this.credentials.forget(agentName);
    // The variables live in the running process's environment: only a fresh process is rid of them.
    if (forgotten?.credentials.kind === 'env') await agents.stopConnection(connection);
    this.deps.log.info(`Signed out of "${agentName}"${connection.canLogout ? ' (logout)' : ''}${forgotten ? '; its stored credentials were forgotten' : ''}.`);
    return { agentName, loggedOut: connection.canLogout, forgot: forgotten !== undefined };
  }

  private async signInAfterRefusal(connection: AgentConnection, error: unknown): Promise<SignedIn | undefined> {
    if (!connection.authMethods.length) return undefined;
    const stored = await this.credentials.load(connection.name);
    const remembered = stored && connection.authMethods.find((m) => m.id === stored.methodId);
    if (stored && remembered && credentialsNeeded(remembered) === stored.credentials.kind) {
      this.deps.log.info(`Agent "${connection.name}" asks for sign-in: signing in again with "${remembered.name}" (stored credentials).`);
      await this.perform(connection, remembered, stored.credentials);
      return { methodName: remembered.name };
    }
    const method = await this.pickMethod(connection, errorMessage(error));
    if (!method) return undefined;
    try {
      await this.perform(connection, method, await this.askCredentials(connection.name, method));
    } catch (failure) {
      if (failure instanceof SignInDismissed) return undefined;
      throw failure;
    }
    return { methodName: method.name };
  }

  private async pickMethod(connection: AgentConnection, reason?: string): Promise<AuthMethod | undefined> {
    type Item = vscode.QuickPickItem & { method: AuthMethod };
    const items: Item[] = connection.authMethods.map((method) => ({
      label: method.name,
      description: methodHint(method),
      ...(method.description ? { detail: method.description } : {}),
      method,
    }));
    const pick = await vscode.window.showQuickPick(items, {
      title: `Sign in to ${connection.name}`,
      placeHolder: reason ? `${reason} Choose how to sign in.` : 'Choose how to sign in.',
      matchOnDetail: true,
      ignoreFocusOut: true,
    });
    return pick?.method;
  }

  /** Asks for what the method needs (password boxes for secrets). Throws SignInDismissed on Escape. */
  private async askCredentials(agentName: string, method: AuthMethod): Promise<Credentials> {
    const needed = credentialsNeeded(method);
    const title = `Sign in to ${agentName}: ${method.name}`;
    switch (needed) {
      case 'none':
        return { kind: 'none' };
      case 'env': {
        const env: Record<string, string> = {};
        for (const v of (method as EnvVarMethod).vars) {
          const value = await ask({
            title,
            prompt: `${v.label ?? v.name}${v.optional ? ' (optional)' : ''}: kept in VS Code's secret storage and given to the agent as ${v.name}.`,
            password: true,
            validateInput: (text) => (!text && !v.optional ? `${v.name} is required.` : undefined),
          });
          if (value) env[v.name] = value;
        }
        return { kind: 'env', env };
      }
      case 'api-key': {
        const key = await ask({ title, prompt: 'API key: kept in VS Code\'s secret storage and sent to the agent when it asks for sign-in.', password: true, validateInput: (t) => (t ? undefined : 'An API key is required.') });
        return { kind: 'api-key', key };
      }
      case 'gateway': {
        const baseUrl = await ask({ title, prompt: 'Base URL of the gateway', placeHolder: 'https://gateway.example.com', validateInput: (t) => validate(() => checkBaseUrl(t)) });
        const headers = await ask({
          title,
          prompt: 'Headers as a JSON object (may hold a token: kept in secret storage); empty for none',
          placeHolder: '{"Authorization": "Bearer …"}',
          password: true,
          validateInput: (t) => validate(() => parseHeaders(t)),
        });
        return { kind: 'gateway', baseUrl: checkBaseUrl(baseUrl), headers: parseHeaders(headers) };
      }
      default:
        return assertNever(needed, 'credentials');
    }
  }

  /** Signs in with the method. Throws with a clear reason when it fails. */
  private async perform(connection: AgentConnection, method: AuthMethod, credentials: Credentials): Promise<void> {
    const agentName = connection.name;
    this.deps.log.info(`Signing in to "${agentName}" with "${method.name}" (${method.type}).`);
    switch (method.type) {
      case 'terminal':
        // Never `authenticate` a terminal method: the login program's exit status is the answer.
        await this.runLoginTerminal(connection, method);
        break;
      case 'env_var': {
        if (credentials.kind !== 'env') throw new Error(`Sign-in with "${method.name}" needs ${method.vars.map((v) => v.name).join(', ')}.`);
        await this.credentials.store(agentName, { methodId: method.id, credentials });
        // The agent reads the variables from its environment: restart it with them unless it
        // already runs with exactly these.
        let target = connection;
        const launchEnv = connection.process.launch.env;
        if (!connection.process.isAlive || Object.entries(credentials.env).some(([k, v]) => launchEnv[k] !== v)) {
          const { agents } = this.deps;
          // Only this agent restarts: the other agents' sessions run on.
          const agentKey = agents.keyOf(connection);
          await agents.stopConnection(connection);
          target = await agents.connect(agentKey);
        }
        try {
          await target.authenticate(method.id);
        } catch (error) {
          await this.credentials.forget(agentName);
          throw new Error(`Sign-in to "${agentName}" with "${method.name}" failed: ${errorMessage(error)}`);
        }
        break;
      }
      case 'agent': {
        const apiKeyForm = await this.authenticateAgentMethod(connection, method, credentials);
        if (credentials.kind === 'api-key' || credentials.kind === 'gateway') {
          await this.credentials.store(agentName, { methodId: method.id, credentials, ...(apiKeyForm ? { apiKeyForm } : {}) });
        }
        break;
      }
      default:
        assertNever(method, 'auth method');
    }
    this.deps.log.info(`Signed in to "${agentName}" with "${method.name}".`);
  }

  /**
   * `authenticate` with an agent method. A key goes in the form this agent accepted before, else
   * the form its method suggests; when the agent refuses it, once more in the other form (Codex
   * 2.6 answers the string form with "CODEX_API_KEY or OPENAI_API_KEY is not set", Gemini CLI
   * reads only the string). The form that worked is remembered for this agent (by its settings
   * entry, never by what the agent calls itself). Throws with the agent's reasons when none did.
   */
  private async authenticateAgentMethod(connection: AgentConnection, method: AuthMethod, credentials: Credentials): Promise<ApiKeyForm | undefined> {
    const agentName = connection.name;
    const forms: (ApiKeyForm | undefined)[] = credentials.kind === 'api-key' ? apiKeyForms(method, this.rememberedForm(agentName)) : [undefined];
    const failures: string[] = [];
    for (const form of forms) {
      try {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Signing in to ${agentName} with ${method.name}…` },
          () => connection.authenticate(method.id, authenticateMeta(credentials, form)),
        );
        if (form) {
          this.keyForms.set(agentName, form);
          if (failures.length) this.deps.log.info(`"${agentName}" took the API key in the ${form} form (the other was refused: ${failures.join('; ')}).`);
        }
        return form;
      } catch (error) {
        // Only an answer from the agent is worth a second form; a dead or cancelled one is not.
        failures.push(errorMessage(error));
        if (!isRpcError(error) || !connection.process.isAlive) break;
      }
    }
    throw new Error(`Sign-in to "${agentName}" with "${method.name}" failed: ${[...new Set(failures)].join('; ')}`);
  }

  private rememberedForm(agentName: string): ApiKeyForm | undefined {
    return this.keyForms.get(agentName) ?? this.credentials.peek(agentName)?.apiKeyForm;
  }

  /**
   * Runs the login program in a real, interactive terminal (a TTY, not a pseudoterminal) and
   * waits for it to exit: the flow goes on by itself when it does, the user need not close it.
   */
  private async runLoginTerminal(connection: AgentConnection, method: TerminalMethod): Promise<void> {
    const launch = connection.process.launch;
    const program = terminalLoginProgram(method, launch);
    this.deps.log.info(`Sign-in terminal for "${connection.name}": ${program.command} ${program.args.join(' ')}`);
    const terminal = vscode.window.createTerminal({
      name: `Sign in: ${connection.name}`,
      shellPath: program.command,
      shellArgs: program.args,
      env: program.env,
      cwd: launch.cwd,
      iconPath: new vscode.ThemeIcon('key'),
      isTransient: true,
    });
    const closed = new Promise<vscode.TerminalExitStatus | undefined>((resolve) => {
      const subscription = vscode.window.onDidCloseTerminal((t) => {
        if (t !== terminal) return;
        subscription.dispose();
        resolve(t.exitStatus);
      });
    });
    terminal.show();
    const status = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Sign in to ${connection.name}: finish "${method.name}" in the terminal.`, cancellable: true },
      (_progress, token) => {
        const cancelled = token.onCancellationRequested(() => terminal.dispose());
        return closed.finally(() => cancelled.dispose());
      },
    );
    if (status?.code === 0) return;
    if (status?.code === undefined) {
      throw new Error(`Sign-in to "${connection.name}" with "${method.name}" did not finish: the terminal was closed before the login program exited.`);
    }
    throw new Error(`Sign-in to "${connection.name}" with "${method.name}" failed: the login program exited with code ${status.code}.`);
  }
}

/** A JSON-RPC error answer (the agent read the request and refused it). */
function isRpcError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number';
}

async function ask(options: vscode.InputBoxOptions): Promise<string> {
  const value = await vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
  if (value === undefined) throw new SignInDismissed();
  return value;
}

function validate(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
