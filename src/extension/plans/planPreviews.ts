import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { AgentSessions } from '../session/agentSessions';
import type { PlanRecord } from '../session/model/plans';
import { PLAN_SCHEME, decodePlanDocUri, encodePlanDocUri, type PlanDocKey } from './model/planDocs';

export function planDocUri(key: PlanDocKey): vscode.Uri {
  return vscode.Uri.from(encodePlanDocUri(key));
}

/**
 * A plan whole, where VS Code shows such things: a markdown plan as a read-only document (its
 * own scheme, the text always the plan's latest version) in VS Code's markdown preview; a file
 * plan's file in an editor. The card in the chat shows only the start of a long plan.
 */
export class PlanPreviews extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly deps: { sessions: AgentSessions; log: Logger }) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, this));
    // An open preview follows the plan as the agent replaces it.
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        if (!changes.plans) return;
        for (const doc of vscode.workspace.textDocuments) {
          if (decodePlanDocUri(doc.uri)?.sessionId === session.state.sessionId) this.changeEmitter.fire(doc.uri);
        }
      }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = decodePlanDocUri(uri);
    const plan = key && this.plan(key);
    if (!plan) return '*ACP Native: this plan is no longer available.*';
    return plan.type === 'markdown' ? (plan.content ?? '') : `*ACP Native: plan ${plan.planId} is not a markdown plan.*`;
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

  private plan(key: PlanDocKey): PlanRecord | undefined {
    return this.deps.sessions.session(key.sessionId)?.state.sessionEvents.plans.find((p) => p.planId === key.planId);
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
