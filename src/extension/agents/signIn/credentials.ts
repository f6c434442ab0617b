import type * as vscode from 'vscode';
import { parseStoredSignIn, type StoredSignIn } from './model/authMethods';
import { Disposable } from '../../base/lifecycle';

const KEY_PREFIX = 'acpNative.signIn/';

/**
 * Per-agent sign-in secrets in VS Code's SecretStorage, keyed by agent name: never in settings,
 * never logged. Launches are synchronous, so what is loaded is cached here and reloaded when the
 * secret changes (another window, or this one).
 */
export class SignInCredentials extends Disposable {
  private readonly cache = new Map<string, StoredSignIn | undefined>();
  /** Bumped by every write, so a read that started before it cannot bring back a stale value. */
  private readonly writes = new Map<string, number>();
  /** Writes not yet acknowledged by the storage: a read meanwhile may see the old value. */
  private readonly writing = new Map<string, number>();

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this._register(
      secrets.onDidChange((e) => {
        if (e.key.startsWith(KEY_PREFIX)) void this.load(e.key.slice(KEY_PREFIX.length));
      }),
    );
  }

  /** Loads the agents' secrets into the cache (at activation, so the first launch has them). */
  async preload(agentNames: readonly string[]): Promise<void> {
    await Promise.all(agentNames.filter((n) => !this.cache.has(n)).map((n) => this.load(n)));
  }

  /** What is stored for the agent, as cached (loaded by `preload` or an earlier `load`). */
  peek(agentName: string): StoredSignIn | undefined {
    return this.cache.get(agentName);
  }

  /** The variables an env_var sign-in put in the agent's environment. */
  launchEnv(agentName: string): Record<string, string> {
    const stored = this.cache.get(agentName);
    return stored?.credentials.kind === 'env' ? { ...stored.credentials.env } : {};
  }

  async load(agentName: string): Promise<StoredSignIn | undefined> {
    const before = this.writes.get(agentName) ?? 0;
    const stored = parseStoredSignIn(await this.secrets.get(KEY_PREFIX + agentName));
    if ((this.writes.get(agentName) ?? 0) !== before || (this.writing.get(agentName) ?? 0) > 0) return this.cache.get(agentName);
    this.cache.set(agentName, stored);
    return stored;
  }

  async store(agentName: string, value: StoredSignIn): Promise<void> {
    // The cache first: a launch that follows at once must see the new environment.
    await this.write(agentName, value, () => this.secrets.store(KEY_PREFIX + agentName, JSON.stringify(value)));
  }

  async forget(agentName: string): Promise<StoredSignIn | undefined> {
    const stored = this.cache.has(agentName) ? this.cache.get(agentName) : await this.load(agentName);
    await this.write(agentName, undefined, () => this.secrets.delete(KEY_PREFIX + agentName));
    return stored;
  }

  private async write(agentName: string, value: StoredSignIn | undefined, persist: () => Thenable<void>): Promise<void> {
    this.writes.set(agentName, (this.writes.get(agentName) ?? 0) + 1);
    this.writing.set(agentName, (this.writing.get(agentName) ?? 0) + 1);
    this.cache.set(agentName, value);
    try {
      await persist();
    } finally {
      this.writing.set(agentName, (this.writing.get(agentName) ?? 1) - 1);
    }
  }
}
