import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { AgentSessions } from '../session/agentSessions';
import type { PlanRecord } from '../session/model/plans';
import { PLAN_SCHEME, decodePlanDocUri, encodePlanDocUri, type PlanDocKey } from './model/planDocs';

export function planDocUri(key: PlanDocKey): vscode.Uri {
  return vscode.Uri.from(encodePlanDocUri(key));
}

/** What a plan's document shows: a markdown plan's text, else a readable note (never a throw). */
function textOf(plan: PlanRecord | undefined): string {
  if (!plan) return '*ACP Native: this plan is no longer available.*';
  return plan.type === 'markdown' ? (plan.content ?? '') : `*ACP Native: plan ${plan.planId} is not a markdown plan.*`;
}

/**
 * A plan whole, where VS Code shows such things: a markdown plan as a read-only document (its
 * own scheme, the text always the plan's latest version) in VS Code's markdown preview; a file
 * plan's file in an editor. The card in the chat shows only the start of a long plan.
 *
 * A read-only file system rather than a text document content provider, as for the diff cards:
 * VS Code takes a file's bytes as a buffer, while a provider's text is serialised in one go (a
 * plan of megabytes blocked the extension host), and the preview can `stat` what it shows.
 */
export class PlanPreviews extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changeEmitter.event;

  constructor(private readonly deps: { sessions: AgentSessions; log: Logger }) {
    super();
    this._register(vscode.workspace.registerFileSystemProvider(PLAN_SCHEME, this, { isReadonly: true, isCaseSensitive: true }));
    // An open preview follows the plan as the agent replaces it.
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        if (!changes.plans) return;
        const changed = vscode.workspace.textDocuments.filter((doc) => decodePlanDocUri(doc.uri)?.sessionId === session.state.sessionId);
        if (changed.length) this.changeEmitter.fire(changed.map((doc) => ({ type: vscode.FileChangeType.Changed, uri: doc.uri })));
      }),
    );
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const plan = this.planOf(uri);
    // The revision as the time: a replaced plan reads as a newer file.
    return { type: vscode.FileType.File, ctime: 0, mtime: plan?.revision ?? 0, size: Buffer.byteLength(textOf(plan)), permissions: vscode.FilePermission.Readonly };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return Buffer.from(textOf(this.planOf(uri)));
  }

  watch(): vscode.Disposable {
    // Changes are announced through onDidChangeFile whether or not anyone watches.
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): never {
    throw vscode.FileSystemError.FileNotADirectory();
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native plans are read-only.');
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native plans are read-only.');
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native plans are read-only.');
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native plans are read-only.');
  }

  /** Opens a plan of a session (the newest of the active session when none is named). */
  async open(sessionId?: string, planId?: string): Promise<void> {
    const session = sessionId ? this.deps.sessions.session(sessionId) : this.deps.sessions.active;
    const plans = session?.state.sessionEvents.plans ?? [];
    const plan = planId === undefined ? plans.at(-1) : plans.find((p) => p.planId === planId);
    if (!session || !plan) {
      void vscode.window.showInformationMessage(planId === undefined ? 'ACP: the agent has shown no plan in this session.' : 'ACP: this plan is no longer available.');
      return;
    }
    switch (plan.type) {
      case 'markdown':
        return this.preview(planDocUri({ sessionId: session.state.sessionId, planId: plan.planId }));
      case 'file':
        if (!plan.path) throw new Error(`The plan names ${plan.uri ?? 'no file'}, which is not a file here.`);
        await vscode.window.showTextDocument(vscode.Uri.file(plan.path), { preview: true });
        return;
      case 'items':
        void vscode.window.showInformationMessage('ACP: this plan is a checklist; the chat shows all of it.');
        return;
    }
  }

  private planOf(uri: vscode.Uri): PlanRecord | undefined {
    const key = decodePlanDocUri(uri);
    return key && this.deps.sessions.session(key.sessionId)?.state.sessionEvents.plans.find((p) => p.planId === key.planId);
  }

  /** VS Code's markdown preview of the document; the document itself where no preview is installed. */
  private async preview(uri: vscode.Uri): Promise<void> {
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch (error) {
      this.deps.log.warn(`The markdown preview could not show the plan (${error instanceof Error ? error.message : String(error)}); opening it as text.`);
      await vscode.window.showTextDocument(uri, { preview: true });
    }
  }
}
