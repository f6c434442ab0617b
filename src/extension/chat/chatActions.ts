import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { CHAT_PROTOCOL_VERSION, type ChatChoice, type HostToWebview, type WebviewRequest } from '../../protocol/chat';
import { assertNever } from '../../protocol/assertNever';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { QueuedPromptRemovedError, type PromptQueues } from '../queue/promptQueues';
import type { Agents } from '../agents/agents';
import type { Config } from '../config';
import type { PermissionService } from '../permissions/permissionService';
import { REJECT_WITH_REASON_COMMAND, REVIEW_HUNKS_COMMAND } from '../partialApproval/hunkReview';
import type { ToolCallsTree } from '../cards/tree/toolCallsTree';
import { Disposable } from '../base/lifecycle';
import { fileDisplayPath } from '../workspace/titles';
import { pickAgent, pickAgentForSession, type AddedAgentList } from './agentPicker';
import type { SessionHistory } from './sessionHistory';
import type { EditAndResend } from './editAndResend';
import type { ElicitationService } from '../forms/elicitationService';
import type { WorkspaceFiles } from '../workspace/workspaceFiles';
import { checkAttachmentSize, checkPromptSize, PromptTooLargeError } from '../session/model/promptSize';

/** A mentioned file larger than this goes as a link even to agents that take embedded context. */
const MAX_EMBEDDED_BYTES = 256 * 1024;

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
      verbs: SessionVerbs;
      queues: PromptQueues;
      agents: Agents;
      permissions: PermissionService;
      tree: ToolCallsTree;
      history: SessionHistory;
      resend: EditAndResend;
      config: Config;
      registry?: AddedAgentList | undefined;
      elicitations: ElicitationService;
      files: WorkspaceFiles;
      /** Where answers to the webview go (mention results). */
      panel: { post(message: HostToWebview): void };
    },
  ) {
    super();
  }

  attachmentChoices(): ChatChoice[] {
    return this.attachments.map(({ id, name }) => ({ id, name }));
  }

  async handle(message: WebviewRequest, session: SessionRecord | undefined): Promise<void> {
    const { sessions, verbs } = this.deps;
    switch (message.type) {
      case 'prompt':
        await this.fromPromptBox(message.text, message.how);
        return;
      case 'queueEdit':
        if (session) this.deps.queues.edit(session.state.sessionId, message.id, message.text);
        return;
      case 'queueRemove':
        if (session) this.deps.queues.remove(session.state.sessionId, message.id);
        return;
      case 'queueMove':
        if (session) this.deps.queues.move(session.state.sessionId, message.id, message.to);
        return;
      case 'queueSendNow':
        if (session) await this.deps.queues.sendNow(session.state.sessionId, message.id);
        return;
      case 'queueResume':
        if (session) this.deps.queues.resume(session.state.sessionId);
        return;
      case 'queueClear':
        if (session) this.deps.queues.clear(session.state.sessionId);
        return;
      case 'cancel':
        return verbs.cancel(session?.state.sessionId);
      case 'answerPermission':
        this.deps.permissions.answerWith(message.questionId, message.optionKind, message.optionId);
        return;
      case 'inspectPermission':
        await this.deps.permissions.inspect(message.questionId);
        return;
      case 'reviewHunks':
        await vscode.commands.executeCommand(REVIEW_HUNKS_COMMAND, message.questionId);
        return;
      case 'rejectWithReason':
        await vscode.commands.executeCommand(REJECT_WITH_REASON_COMMAND, message.questionId);
        return;
      case 'openToolCall':
        if (!session) return;
        if (message.target === 'tree') return this.deps.tree.revealCall(session.state.sessionId, message.toolCallId);
        await vscode.commands.executeCommand('acpNative.openToolCall', session.state.sessionId, message.toolCallId);
        return;
      case 'setMode':
        if (session) await verbs.setMode(session.state.sessionId, message.modeId);
        return;
      case 'setConfigOption':
        if (session) await verbs.setConfigOption(session.state.sessionId, message.configId, message.value);
        return;
      case 'attach':
        return this.attach(message.what);
      case 'detach':
        this.attachments = this.attachments.filter((a) => a.id !== message.id);
        this.attachmentsEmitter.fire();
        return;
      case 'newSession':
        await verbs.newSession();
        return;
      case 'history':
        await vscode.commands.executeCommand('acpNative.showHistory');
        return;
      case 'pickAgent':
        return pickAgent({ config: this.deps.config, verbs, registry: this.deps.registry });
      case 'newSessionWithAgent':
        await pickAgentForSession({ config: this.deps.config, sessions, verbs, agents: this.deps.agents, registry: this.deps.registry });
        return;
      case 'switchSession':
        sessions.setActive(message.sessionId);
        return;
      case 'closeSession':
        return verbs.closeSession(message.sessionId);
      case 'stopSubagent':
        return verbs.cancel(message.sessionId);
      case 'restoreCheckpoint':
        // The command asks first, listing the files.
        if (session) await vscode.commands.executeCommand('acpNative.restoreCheckpoint', { sessionId: session.state.sessionId, turn: message.turn });
        return;
      case 'resend':
        // Asks first (a running turn, the files to restore); declined, nothing changes.
        if (session) await this.deps.resend.resend(session.state.sessionId, message.turn, message.text, { ask: true });
        return;
      case 'reviewTurn':
        if (session) await vscode.commands.executeCommand('acpNative.reviewChanges', { sessionId: session.state.sessionId, turn: message.turn });
        return;
      case 'mentionQuery': {
        const items = await this.deps.files.query(message.query);
        this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'mentionResults', requestId: message.requestId, items });
        return;
      }
      case 'mention': {
        const uri = this.deps.files.resolve(message.path);
        if (uri) await this.attachUri(uri, message.isFolder, message.path);
        return;
      }
      case 'attachImage':
        return this.attachImage(message.name, message.mimeType, message.data);
      case 'answerElicitation':
        this.deps.elicitations.answer(message.id, message.action, message.answers);
        return;
      case 'openPlan':
        if (session) await vscode.commands.executeCommand('acpNative.openPlan', session.state.sessionId, message.planId);
        return;
      case 'compact':
        if (session) await vscode.commands.executeCommand('acpNative.compactConversation', session.state.sessionId);
        return;
      case 'newSessionFromSummary':
        if (session) await vscode.commands.executeCommand('acpNative.newSessionFromSummary', session.state.sessionId);
        return;
      default:
        assertNever(message, 'chat message');
    }
  }

  /** Sends the prompt with the attached context (queued while a turn runs). Over the size limit: refused in the chat, and throws. */
  async prompt(text: string, sessionId?: string): Promise<acp.StopReason> {
    this.refuseIfTooLarge(text);
    return this.deps.queues.prompt(this.takeAttached(text), sessionId);
  }

  /**
   * What the prompt box sends: Enter during a turn steers (queued when the agent cannot be
   * steered, or the steer failed), Alt+Enter queues; without a turn both send. A queued prompt
   * removed before it went is no error, nor is one refused for its size (said under the box).
   */
  private async fromPromptBox(text: string, how: 'send' | 'queue'): Promise<void> {
    try {
      this.refuseIfTooLarge(text);
    } catch (error) {
      if (error instanceof PromptTooLargeError) return;
      throw error;
    }
    const blocks = this.takeAttached(text);
    // While a new session starts, the prompt is for it (the queues wait for it), not a steer of the
    // session shown until then.
    const session = this.deps.verbs.startingSession ? undefined : this.deps.sessions.active;
    if (how === 'send' && session && this.deps.queues.isBusy(session.state.sessionId)) {
      await this.deps.queues.steer(blocks, session.state.sessionId);
      return;
    }
    try {
      await this.deps.queues.prompt(blocks);
    } catch (error) {
      if (!(error instanceof QueuedPromptRemovedError)) throw error;
    }
  }

  /** Refused before anything is cleared: the text goes back into the box, the chips stay. */
  private refuseIfTooLarge(text: string): void {
    const tooLarge = checkPromptSize([{ name: 'the text', blocks: [{ type: 'text', text }] }, ...this.attachments], this.deps.config.promptMaxBytes);
    if (!tooLarge) return;
    this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'promptRefused', reason: tooLarge.message, text });
    throw new PromptTooLargeError(tooLarge);
  }

  private takeAttached(text: string): acp.ContentBlock[] {
    const attached = this.attachments.flatMap((a) => a.blocks);
    this.attachments = [];
    this.attachmentsEmitter.fire();
    return [{ type: 'text', text }, ...attached];
  }

  /**
   * A file or folder for the next prompt: a `resource_link`, or for agents that take embedded
   * context a text file's content (the open document's, unsaved changes included).
   */
  async attachUri(uri: vscode.Uri, isFolder: boolean, label = fileDisplayPath(uri.fsPath)): Promise<void> {
    const id = `a${this.nextAttachmentId++}`;
    const link: acp.ContentBlock = { type: 'resource_link', uri: uri.toString(), name: isFolder ? `${label}/` : label, mimeType: null };
    let block: acp.ContentBlock = link;
    if (!isFolder && (await this.promptCapability('embeddedContext'))) {
      const text = await textOf(uri);
      if (text !== undefined) block = { type: 'resource', resource: { uri: uri.toString(), text, mimeType: null } };
    }
    if (this.attachments.some((a) => a.name === (isFolder ? `${label}/` : label))) return;
    this.admit({ id, name: isFolder ? `${label}/` : label, blocks: [block] });
    this.attachmentsEmitter.fire();
  }

  /** Text (a selection, a terminal's output) for the next prompt, as a fenced block. */
  attachText(name: string, text: string, language = ''): void {
    const id = `a${this.nextAttachmentId++}`;
    this.admit({ id, name, blocks: [{ type: 'text', text: `\n${name}:\n\`\`\`${language}\n${text}\n\`\`\`` }] });
    this.attachmentsEmitter.fire();
  }

  /** Text for the next prompt as it is (a summary carried into a new session). */
  attachContext(name: string, text: string): void {
    this.admit({ id: `a${this.nextAttachmentId++}`, name, blocks: [{ type: 'text', text }] });
    this.attachmentsEmitter.fire();
  }

  /** The selection of an editor for the next prompt (as + Selection does). */
  attachSelection(editor: vscode.TextEditor): Promise<void> {
    return this.attachEditor(editor, 'selection');
  }

  private async attachImage(name: string, mimeType: string, data: string): Promise<void> {
    if (!(await this.promptCapability('image'))) {
      const agent = this.deps.sessions.active?.agentName ?? 'The agent';
      void vscode.window.showWarningMessage(`ACP: ${agent} does not take images (promptCapabilities.image), so the image was not attached.`);
      return;
    }
    const id = `a${this.nextAttachmentId++}`;
    this.admit({ id, name: name || 'image', blocks: [{ type: 'image', mimeType, data }] });
    this.attachmentsEmitter.fire();
  }

  private async attach(what: 'file' | 'selection'): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage('ACP: open a file to attach it.');
      return;
    }
    return this.attachEditor(editor, what);
  }

  private async attachEditor(editor: vscode.TextEditor, what: 'file' | 'selection'): Promise<void> {
    const { document, selection } = editor;
    const uri = document.uri.toString();
    const label = fileDisplayPath(document.uri.fsPath);
    const id = `a${this.nextAttachmentId++}`;
    if (what === 'file' || selection.isEmpty) {
      this.admit({ id, name: label, blocks: [{ type: 'resource_link', uri, name: label, mimeType: null }] });
    } else {
      const range = `${selection.start.line + 1}-${selection.end.line + 1}`;
      const text = document.getText(selection);
      const name = `${label}:${range}`;
      // Embedded resources only go to agents that say they take them (ACP promptCapabilities).
      const embedded = (await this.embeddedContextSupported())
        ? [{ type: 'resource' as const, resource: { uri: `${uri}#L${range}`, text, mimeType: null } }]
        : [{ type: 'text' as const, text: `\n${name}:\n\`\`\`${document.languageId}\n${text}\n\`\`\`` }];
      this.admit({ id, name, blocks: embedded });
    }
    this.attachmentsEmitter.fire();
  }

  /**
   * Keeps an attachment for the next prompt, unless it alone is over the prompt limit: then it is
   * refused at once, in the chat, with its size (the prompt box keeps what was typed).
   */
  private admit(attachment: Attachment): boolean {
    const tooLarge = checkAttachmentSize(attachment.name, attachment.blocks, this.deps.config.promptMaxBytes);
    if (tooLarge) {
      this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'promptRefused', reason: tooLarge.message });
      return false;
    }
    this.attachments.push(attachment);
    return true;
  }

  private embeddedContextSupported(): Promise<boolean> {
    return this.promptCapability('embeddedContext');
  }

  /** Whether the agent takes this kind of prompt content (starts it when needed). */
  private async promptCapability(what: 'embeddedContext' | 'image'): Promise<boolean> {
    const session = this.deps.sessions.active ?? (await this.deps.verbs.newSession());
    return session.connection.initializeResponse.agentCapabilities?.promptCapabilities?.[what] === true;
  }
}

/** A text file's content (the open document's when it is open), or undefined for binary or large files. */
async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText().length <= MAX_EMBEDDED_BYTES ? open.getText() : undefined;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_EMBEDDED_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.includes(0)) return undefined;
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined; // not UTF-8, or gone: a link says enough
  }
}
