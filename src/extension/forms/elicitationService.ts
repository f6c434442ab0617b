import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { checkField, parseElicitationSchema, validateAnswers, type FormField } from './model/elicitation';
import type { ChatElicitation, ChatElicitationAction } from '../../protocol/chat';
import type { Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import { onAnyDispose } from '../base/scope';
import type { SessionRecord } from '../session/agentSessions';
import type { QuestionSurface } from '../permissions/questionSurface';

type Response = acp.CreateElicitationResponse;

/** How long an accepted URL form stays shown waiting for `elicitation/complete` (a device code expires in 15 minutes). */
const URL_WAIT_LIMIT_MS = 15 * 60_000;

interface OpenForm {
  readonly id: number;
  /** A URL form (sign-in in the browser, a device code): what to open, and the agent's id for it. */
  readonly url?: { readonly href: string; readonly host: string; readonly elicitationId: string | undefined };
  /**
   * `asking` until answered; a URL form that was accepted stays shown `waiting` (the device code
   * must stay readable while the person types it elsewhere) until the agent's `elicitation/complete`.
   */
  state: 'asking' | 'waiting';
  /** Undefined for a request-scoped question (not tied to a session). */
  readonly sessionId: string | undefined;
  readonly message: string;
  readonly fields: readonly FormField[];
  errors: Record<string, string>;
  /** Shown in the chat; otherwise asked with native input boxes (still cancellable here). */
  readonly inline: boolean;
  readonly resolve: (response: Response) => void;
}

/**
 * `elicitation/create`: the agent asks the person for structured input. A form is answered inline
 * in the Chat view when it is on screen, else with native input boxes and quick picks; a `url`
 * request asks before opening the browser. Cancelling the turn (or the agent withdrawing the
 * request) answers every open form `cancel`, and so does closing its session or its agent exiting:
 * a form lives in its session's scopes.
 */
export class ElicitationService extends Disposable {
  private readonly open = new Map<number, OpenForm>();
  /** Accepted URL forms still shown until the agent completes them, with what closes their notification. */
  private readonly waiting = new Map<number, { form: OpenForm; close: () => void }>();
  /** Each open form's place in its session's scopes, let go when it is answered. */
  private readonly settled = new Map<number, { dispose(): void }>();
  private nextId = 1;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  private readonly log: Logger;

  constructor(
    private readonly deps: {
      log: Logger;
      /** The open sessions: a form lives in its session's scopes, and not past a cancelled turn. */
      sessions: { session(sessionId: string): Pick<SessionRecord, 'scope' | 'agentScope' | 'questions' | 'turnCancelled'> | undefined };
      /** Whether the Chat view is on screen to show forms inline. */
      surface: QuestionSurface;
    },
  ) {
    super();
    this.log = deps.log;
    this._register({ dispose: () => this.cancelAll() });
  }

  async request(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<Response> {
    const sessionId = 'sessionId' in params && typeof params.sessionId === 'string' ? params.sessionId : undefined;
    const record = sessionId === undefined ? undefined : this.deps.sessions.session(sessionId);
    // In flight when the turn was cancelled: answered at once, not left to a person who moved on.
    if (record?.turnCancelled) return { action: 'cancel' };
    switch (params.mode) {
      case 'form':
        return this.form(sessionId, params.message, (params as { requestedSchema?: acp.ElicitationSchema }).requestedSchema, signal);
      case 'url': {
        const elicitationId = (params as { elicitationId?: unknown }).elicitationId;
        return this.url(sessionId, params.message, String((params as { url?: unknown }).url ?? ''), typeof elicitationId === 'string' ? elicitationId : undefined, signal);
      }
      default:
        this.log.warn(`elicitation/create: mode "${String(params.mode)}" is not supported; declined`);
        return { action: 'decline' };
    }
  }

  /** The open forms of a session (and those not tied to any session), and URL forms still waiting. */
  pending(sessionId: string | undefined): ChatElicitation[] {
    return [...this.open.values(), ...[...this.waiting.values()].map((w) => w.form)]
      .filter((f) => f.inline && (f.sessionId === undefined || f.sessionId === sessionId))
      .sort((a, b) => a.id - b.id)
      .map((f) => ({ id: f.id, message: f.message, fields: f.fields, errors: f.errors, ...(f.url ? { url: { href: f.url.href, host: f.url.host, waiting: f.state === 'waiting' } } : {}) }));
  }

  /**
   * `elicitation/complete`: the agent is done with a URL form (the sign-in finished elsewhere).
   * Closes it wherever it shows, in the chat and in the notifications; one still unanswered is
   * answered `accept` (the person did what it asked, on another device perhaps).
   */
  complete(elicitationId: string): void {
    for (const form of [...this.open.values()]) if (form.url?.elicitationId === elicitationId) this.settle(form, { action: 'accept' }, { completed: true });
    for (const [id, entry] of this.waiting) {
      if (entry.form.url?.elicitationId !== elicitationId) continue;
      this.stopWaiting(id);
    }
  }

  /** An answer from the API: false when no such form is open (or waiting). */
  answerIfOpen(id: number, action: ChatElicitationAction, answers: Readonly<Record<string, string | boolean>>): boolean {
    if (!this.open.has(id) && !this.waiting.has(id)) return false;
    this.answer(id, action, answers);
    return true;
  }

  /** An answer from the chat. An invalid one stays open with its errors shown. */
  answer(id: number, action: ChatElicitationAction, answers: Readonly<Record<string, string | boolean>>): void {
    if (this.waiting.has(id)) {
      // A URL form already accepted: "Open" again, or put away before the agent completes it.
      if (action === 'accept') void this.openUrl(this.waiting.get(id)!.form);
      else this.stopWaiting(id);
      return;
    }
    const form = this.open.get(id);
    if (!form) return; // answered or cancelled meanwhile: the first answer wins
    if (action !== 'accept') return this.settle(form, { action });
    if (form.url) {
      void this.openUrl(form);
      return this.settle(form, { action: 'accept' });
    }
    const result = validateAnswers(form.fields, answers);
    if (!result.ok) {
      form.errors = result.errors;
      this.changed.fire();
      return;
    }
    this.settle(form, { action: 'accept', content: result.content });
  }

  private cancelAll(): void {
    for (const form of [...this.open.values()]) this.settle(form, { action: 'cancel' });
    for (const id of [...this.waiting.keys()]) this.stopWaiting(id);
  }

  private settle(form: OpenForm, response: Response, how: { completed?: boolean } = {}): void {
    if (!this.open.delete(form.id)) return;
    // An accepted URL form the agent will complete stays shown until it does.
    const waits = response.action === 'accept' && form.url?.elicitationId !== undefined && how.completed !== true;
    if (!waits) {
      this.settled.get(form.id)?.dispose();
      this.settled.delete(form.id);
    }
    form.resolve(response);
    if (waits) this.startWaiting(form);
    this.changed.fire();
  }

  private startWaiting(form: OpenForm): void {
    form.state = 'waiting';
    let close = () => {};
    if (!form.inline) {
      // A progress notification, because it can be closed from here when the agent completes.
      const closed = new Promise<void>((resolve) => (close = resolve));
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `${form.message} [${form.url!.host}](${form.url!.href})`, cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => this.stopWaiting(form.id));
          return closed;
        },
      );
    }
    // An agent that never completes must not leave a card behind for good.
    const timer = setTimeout(() => this.stopWaiting(form.id), URL_WAIT_LIMIT_MS);
    const closeNotification = close;
    this.waiting.set(form.id, { form, close: () => (clearTimeout(timer), closeNotification()) });
  }

  private stopWaiting(id: number): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    entry.close();
    this.settled.get(id)?.dispose();
    this.settled.delete(id);
    this.changed.fire();
  }

  private async openUrl(form: OpenForm): Promise<void> {
    if (!form.url) return;
    try {
      await vscode.env.openExternal(vscode.Uri.parse(form.url.href, true));
    } catch (error) {
      // The form stays shown with its address: the person can still open it by hand.
      this.log.warn(`Could not open ${form.url.host}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async form(sessionId: string | undefined, message: string, schema: acp.ElicitationSchema | undefined, signal: AbortSignal): Promise<Response> {
    const { fields, unsupported } = parseElicitationSchema(schema);
    const requiredUnsupported = unsupported.filter((key) => (schema?.required ?? []).includes(key));
    if (requiredUnsupported.length) {
      void vscode.window.showWarningMessage(`ACP: the agent asked for ${requiredUnsupported.join(', ')}, which this editor cannot ask for; declined.`);
      return { action: 'decline' };
    }
    const inline = this.deps.surface.showsQuestions;
    return new Promise<Response>((resolve) => {
      const form: OpenForm = { id: this.nextId++, state: 'asking', sessionId, message, fields, errors: {}, inline, resolve };
      this.open.set(form.id, form);
      const record = sessionId === undefined ? undefined : this.deps.sessions.session(sessionId);
      if (record) {
        const registration = onAnyDispose([record.questions, record.agentScope, record.scope], () => this.settle(form, { action: 'cancel' }));
        if (this.open.has(form.id)) this.settled.set(form.id, registration);
      }
      signal.addEventListener('abort', () => this.settle(form, { action: 'cancel' }), { once: true });
      if (signal.aborted) this.settle(form, { action: 'cancel' });
      if (inline) this.changed.fire();
      else
        void this.askNatively(form).then(
          (response) => this.settle(form, response),
          () => this.settle(form, { action: 'cancel' }),
        );
    });
  }

  /**
   * One input box or quick pick per field; Escape anywhere cancels, "Decline" declines. A
   * cancelled turn settles the form meanwhile; what is typed after that is dropped.
   */
  private async askNatively(form: OpenForm): Promise<Response> {
    const { message, fields } = form;
    const stillOpen = () => this.open.has(form.id);
    const start = await vscode.window.showInformationMessage(`The agent asks: ${message}`, 'Answer…', 'Decline');
    if (!stillOpen() || start === undefined) return { action: 'cancel' };
    if (start === 'Decline') return { action: 'decline' };
    const answers: Record<string, string | boolean> = {};
    for (const [index, field] of fields.entries()) {
      if (!stillOpen()) return { action: 'cancel' };
      const title = `${message} (${index + 1}/${fields.length})`;
      const answer = await askField(field, title);
      if (answer === undefined) return { action: 'cancel' };
      if (answer !== '') answers[field.key] = answer;
    }
    const result = validateAnswers(fields, answers);
    return result.ok ? { action: 'accept', content: result.content } : { action: 'cancel' };
  }

  /** Forms open now, inline or native, by session (tests and diagnostics); URL forms also while they wait. */
  openForms(): { id: number; sessionId: string | undefined; inline: boolean; message: string; mode: 'form' | 'url'; state: 'asking' | 'waiting'; url?: string }[] {
    return [...this.open.values(), ...[...this.waiting.values()].map((w) => w.form)].map((f) => ({
      id: f.id,
      sessionId: f.sessionId,
      inline: f.inline,
      message: f.message,
      mode: f.url ? 'url' : 'form',
      state: f.state,
      ...(f.url ? { url: f.url.href } : {}),
    }));
  }

  /**
   * A URL form: the person is asked before anything opens. In the chat it is a card with the
   * message (a device code stays readable there) and Open / Decline; elsewhere a notification.
   * Accepted, it opens the browser and stays shown until the agent's `elicitation/complete`.
   */
  private url(sessionId: string | undefined, message: string, url: string, elicitationId: string | undefined, signal: AbortSignal): Promise<Response> {
    let parsed: vscode.Uri;
    try {
      parsed = vscode.Uri.parse(url, true);
    } catch {
      return Promise.resolve({ action: 'decline' });
    }
    if (parsed.scheme !== 'https' && parsed.scheme !== 'http') {
      this.log.warn(`elicitation/create: refused to open a ${parsed.scheme}: URL`);
      return Promise.resolve({ action: 'decline' });
    }
    const inline = this.deps.surface.showsQuestions;
    return new Promise<Response>((resolve) => {
      const form: OpenForm = { id: this.nextId++, state: 'asking', sessionId, message, fields: [], errors: {}, inline, resolve, url: { href: url, host: parsed.authority, elicitationId } };
      this.open.set(form.id, form);
      const record = sessionId === undefined ? undefined : this.deps.sessions.session(sessionId);
      if (record) {
        const registration = onAnyDispose([record.questions, record.agentScope, record.scope], () => {
          this.settle(form, { action: 'cancel' });
          this.stopWaiting(form.id);
        });
        if (this.open.has(form.id)) this.settled.set(form.id, registration);
      }
      signal.addEventListener('abort', () => this.settle(form, { action: 'cancel' }), { once: true });
      if (signal.aborted) this.settle(form, { action: 'cancel' });
      if (inline) this.changed.fire();
      else
        void vscode.window.showInformationMessage(`The agent asks you to open ${parsed.authority}: ${message}`, { detail: url }, 'Open in Browser', 'Decline').then((pick) => {
          if (!this.open.has(form.id)) return; // answered meanwhile (the chat, the API, complete)
          if (pick === 'Open in Browser') this.answer(form.id, 'accept', {});
          else this.settle(form, { action: pick === 'Decline' ? 'decline' : 'cancel' });
        });
    });
  }
}

/** The answer to one field: text, a boolean, '' for "left empty", undefined when cancelled. */
async function askField(field: FormField, title: string): Promise<string | boolean | undefined> {
  const placeHolder = field.description ?? field.title;
  switch (field.kind) {
    case 'boolean': {
      const items = [{ label: 'Yes', value: true }, { label: 'No', value: false }];
      const pick = await vscode.window.showQuickPick(items, { title: `${title}: ${field.title}`, placeHolder, ignoreFocusOut: true });
      return pick?.value;
    }
    case 'enum': {
      const items = field.options.map((o) => ({ label: o.title, description: o.value === field.default ? 'default' : undefined, value: o.value }));
      const pick = await vscode.window.showQuickPick(items, { title: `${title}: ${field.title}`, placeHolder, ignoreFocusOut: true });
      return pick?.value;
    }
    case 'string':
    case 'number':
    case 'integer':
      return vscode.window.showInputBox({
        title: `${title}: ${field.title}${field.required ? '' : ' (optional)'}`,
        prompt: field.description ?? undefined,
        value: field.default === null ? '' : String(field.default),
        ignoreFocusOut: true,
        validateInput: (text) => {
          const checked = checkField(field, text);
          return 'error' in checked ? checked.error : undefined;
        },
      });
  }
}
