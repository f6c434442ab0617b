import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import type { ChatChoice, WebviewToHost } from '../../../protocol/chat';
import { assertNever } from '../../../protocol/assertNever';
import type { AgentSessions, SessionRecord } from '../../connection/agentSessions';
import type { Config } from '../../config';
import type { PermissionService } from '../../services/permissions';
import type { ToolCallsTree } from '../tree/toolCallsTree';
import { Disposable } from '../../util/lifecycle';
import { fileDisplayPath } from '../../titles';
import { pickAgent, type AddedAgentList, type LlmApiKey } from './agentPicker';
import type { SessionHistory } from './sessionHistory';

interface Attachment extends ChatChoice {
  readonly blocks: acp.ContentBlock[];
}

/** What the webview asks for, done with VS Code's own means (commands, quick picks, editors). */
export class ChatActions extends Disposable {
  private attachments: Attachment[] = [];
  private nextAttachmentId = 1;
  private readonly attachmentsEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeAttachments = this.attachmentsEmitter.event;

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      permissions: PermissionService;
      tree: ToolCallsTree;
      history: SessionHistory;
      config: Config;
      apiKey: LlmApiKey;
      registry?: AddedAgentList | undefined;
    },
  ) {
    super();
  }

  attachmentChoices(): ChatChoice[] {
    return this.attachments.map(({ id, name }) => ({ id, name }));
  }

  async handle(message: Exclude<WebviewToHost, { type: 'ready' }>, session: SessionRecord | undefined): Promise<void> {
    const { sessions } = this.deps;
    switch (message.type) {
      case 'prompt':
        await this.prompt(message.text);
        return;
      case 'cancel':
        return sessions.cancel(session?.state.sessionId);
      case 'answerPermission':
        this.deps.permissions.answerByKind(message.questionId, message.optionKind);
        return;
      case 'inspectPermission':
        await this.deps.permissions.inspect(message.questionId);
        return;
      case 'openToolCall':
        if (!session) return;
        if (message.target === 'tree') return this.deps.tree.revealCall(session.state.sessionId, message.toolCallId);
        await vscode.commands.executeCommand('acpNative.openToolCall', session.state.sessionId, message.toolCallId);
        return;
      case 'setMode':
        if (session) await sessions.setMode(session.state.sessionId, message.modeId);
        return;
      case 'setConfigOption':
        if (session) await sessions.setConfigOption(session.state.sessionId, message.configId, message.value);
        return;
      case 'attach':
        return this.attach(message.what);
      case 'detach':
        this.attachments = this.attachments.filter((a) => a.id !== message.id);
        this.attachmentsEmitter.fire();
        return;
      case 'newSession':
        await sessions.newSession();
        return;
      case 'history':
        await vscode.commands.executeCommand('acpNative.showHistory');
        return;
      case 'pickAgent':
        return pickAgent({ config: this.deps.config, sessions, apiKey: this.deps.apiKey, registry: this.deps.registry });
      case 'restoreCheckpoint':
        // The command asks first, listing the files.
        if (session) await vscode.commands.executeCommand('acpNative.restoreCheckpoint', { sessionId: session.state.sessionId, turn: message.turn });
        return;
      case 'reviewTurn':
        if (session) await vscode.commands.executeCommand('acpNative.reviewChanges', { sessionId: session.state.sessionId, turn: message.turn });
        return;
      default:
        assertNever(message, 'chat message');
    }
  }

  /** Sends the prompt with the attached context; the attachments go with it. */
  async prompt(text: string): Promise<acp.StopReason> {
    const attached = this.attachments.flatMap((a) => a.blocks);
    this.attachments = [];
    this.attachmentsEmitter.fire();
    return this.deps.sessions.prompt([{ type: 'text', text }, ...attached]);
  }

  private async attach(what: 'file' | 'selection'): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('ACP: open a file to attach it.');
      return;
    }
    const { document, selection } = editor;
    const uri = document.uri.toString();
    const label = fileDisplayPath(document.uri.fsPath);
    const id = `a${this.nextAttachmentId++}`;
    if (what === 'file' || selection.isEmpty) {
      this.attachments.push({ id, name: label, blocks: [{ type: 'resource_link', uri, name: label, mimeType: null }] });
    } else {
      const range = `${selection.start.line + 1}-${selection.end.line + 1}`;
      const text = document.getText(selection);
      const name = `${label}:${range}`;
      // Embedded resources only go to agents that say they take them (ACP promptCapabilities).
      const embedded = (await this.embeddedContextSupported())
        ? [{ type: 'resource' as const, resource: { uri: `${uri}#L${range}`, text, mimeType: null } }]
        : [{ type: 'text' as const, text: `\n${name}:\n\`\`\`${document.languageId}\n${text}\n\`\`\`` }];
      this.attachments.push({ id, name, blocks: embedded });
    }
    this.attachmentsEmitter.fire();
  }

  private async embeddedContextSupported(): Promise<boolean> {
    const session = this.deps.sessions.active ?? (await this.deps.sessions.newSession());
    return session.connection.initializeResponse.agentCapabilities?.promptCapabilities?.embeddedContext === true;
  }
}
