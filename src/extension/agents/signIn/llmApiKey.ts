import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';

const SECRET_KEY = 'acpNative.llmApiKey';
/** The bundled agent reads its key from this variable (README, "Options"). */
export const LLM_API_KEY_ENV = 'ACP_NATIVE_LLM_API_KEY';

/**
 * The bundled agent's LLM API key, kept in SecretStorage (never in settings or logs). Launches are
 * synchronous, so the key is cached here and refreshed when the secret changes.
 */
export class LlmApiKey extends Disposable {
  private cached: string | undefined;
  readonly loaded: Promise<void>;

  constructor(private readonly secrets: vscode.SecretStorage) {
    super();
    this.loaded = this.refresh();
    this._register(secrets.onDidChange((e) => (e.key === SECRET_KEY ? void this.refresh() : undefined)));
  }

  /** Environment for the bundled agent: the key when one is stored. */
  env(): Record<string, string> {
    return this.cached ? { [LLM_API_KEY_ENV]: this.cached } : {};
  }

  /** Asks for the key and stores it; an empty answer deletes it. */
  async prompt(): Promise<void> {
    const key = await vscode.window.showInputBox({
      title: 'ACP: LLM API Key for the bundled agent',
      prompt: 'Stored in VS Code\'s secret storage and passed to the bundled agent in ACP_NATIVE_LLM_API_KEY. Leave empty to delete it.',
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key) await this.secrets.store(SECRET_KEY, key);
    else await this.secrets.delete(SECRET_KEY);
    await this.refresh();
    void vscode.window.showInformationMessage(key ? 'ACP: API key stored. It is used the next time the bundled agent starts.' : 'ACP: API key deleted.');
  }

  private async refresh(): Promise<void> {
    this.cached = (await this.secrets.get(SECRET_KEY)) || undefined;
  }
}
