import * as vscode from 'vscode';
import { CHAT_PROTOCOL_VERSION, parseWebviewMessage, type HostToWebview, type WebviewRequest } from '../../protocol/chat';
import type { Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import type { QuestionSurface } from '../permissions/questionSurface';
import { chatHtml, chatResourceRoots } from './chatHtml';

export const CHAT_VIEW_ID = 'acpNative.chat';

/**
 * The Chat view's webview as VS Code gives it: the page, whether it is on screen and listening,
 * the messages both ways. Created before the services that ask questions, which read from it
 * whether the chat shows them (`QuestionSurface`); `ChatView` renders the session through it.
 */
export class ChatPanel extends Disposable implements vscode.WebviewViewProvider, QuestionSurface {
  private view: vscode.WebviewView | undefined;
  /** The webview said `ready` and has not been torn down since. */
  private ready = false;
  /** The page has the keyboard (as it last said). */
  private pageFocused = false;
  private readonly messageEmitter = this._register(new vscode.EventEmitter<WebviewRequest>());
  /** What the webview asks for (every valid message but `ready`, `ack` and `focusChanged`). */
  readonly onDidReceiveMessage = this.messageEmitter.event;
  private readonly ackEmitter = this._register(new vscode.EventEmitter<number>());
  /** The webview drew the patches up to this number. */
  readonly onDidAcknowledge = this.ackEmitter.event;
  private readonly readyEmitter = this._register(new vscode.EventEmitter<void>());
  /** The page is (again) listening: it needs everything. */
  readonly onDidBecomeReady = this.readyEmitter.event;

  constructor(private readonly deps: { extensionUri: vscode.Uri; log: Logger }) {
    super();
    this._register(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this));
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    this.pageFocused = false;
    view.webview.options = { enableScripts: true, localResourceRoots: chatResourceRoots(this.deps.extensionUri) };
    view.webview.html = chatHtml(view.webview, this.deps.extensionUri);
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      // Without retainContextWhenHidden the page is torn down when hidden and says `ready` again.
      view.onDidChangeVisibility(() => {
        if (!view.visible) {
          this.ready = false;
          this.pageFocused = false;
        }
      }),
    ];
    view.onDidDispose(() => {
      subscriptions.forEach((s) => s.dispose());
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
      }
    });
  }

  /** The page is listening: messages posted now arrive. */
  get isReady(): boolean {
    return this.ready;
  }

  /** The chat is on screen and listening: the agent's questions show there. */
  get showsQuestions(): boolean {
    return this.view?.visible === true && this.ready;
  }

  /**
   * Reveals the view and puts the cursor in the prompt box. VS Code's view focus first moves the
   * keyboard to the page's outer frame, and keys typed until the box has it again are lost: when
   * the page has the keyboard already (someone typing while their new session starts), the box is
   * told alone.
   */
  async focus(): Promise<void> {
    if (!(this.view?.visible && this.ready && this.pageFocused)) await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.post({ v: CHAT_PROTOCOL_VERSION, type: 'focusPrompt' });
  }

  post(message: HostToWebview): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.deps.log.warn(`Chat view: message ignored (${parsed.error})`);
      return;
    }
    const message = parsed.message;
    if (message.type === 'ready') {
      this.ready = true;
      this.readyEmitter.fire();
      return;
    }
    if (message.type === 'ack') {
      this.ackEmitter.fire(message.seq);
      return;
    }
    if (message.type === 'focusChanged') {
      this.pageFocused = message.focused;
      return;
    }
    this.messageEmitter.fire(message);
  }
}
