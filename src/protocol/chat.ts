/**
 * The messages between the extension host and the Chat webview (pure: no vscode, no DOM).
 *
 * Both directions are closed unions carrying a protocol version `v`. Each side validates what it
 * receives with the parser of the other direction: a webview is another program (and a webview
 * left open across an extension update may speak an older version), so nothing it posts is
 * trusted by shape alone.
 *
 * The conversation travels as deltas: `reset` sends the whole list once (a session was opened),
 * then `patch` sends only the items that changed or were added, by index. The transcript only
 * grows and its entries change in place (streamed text, tool-call status), so an index is a
 * stable address. A message whose text only grew is sent as the characters it grew by (`append`),
 * so streaming a long answer costs each flush what arrived since the last one, not the whole text. The small, whole-replaced rest of the session (mode, plan, questions…) travels
 * as `status`.
 *
 * Items travel packed (`packChanges`, `packItem`; the webview unpacks them): consecutive changed
 * items go as one run from their first index, and a tool row as a tuple without field names. A
 * storm of tool calls is thousands of rows: packed, they are about half the bytes, so half the
 * messages the extension host serialises and code-server compresses, and half the replies.
 */

export const CHAT_PROTOCOL_VERSION = 11;

export type ChatRole = 'user' | 'agent' | 'thought';
export type ChatToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';
/** What a tool row's main action opens. */
export type ChatToolTarget = 'diff' | 'terminal' | 'tree';
export type ChatPermissionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
export type ChatActivity = 'none' | 'idle' | 'working' | 'waiting';

export interface ChatMessageItem {
  readonly kind: 'message';
  readonly role: ChatRole;
  /** Markdown for the agent and thoughts; plain text for the user. */
  readonly text: string;
  /** Labels of non-text blocks (attached files, images, resources). */
  readonly attachments: readonly string[];
  /** A user message's turn (its index among the session's user messages): for Edit & resend and its checkpoint. */
  readonly turn?: number;
  /**
   * What the agent changed in this turn: "3 files, +12 −4" (empty when it changed none but a
   * later turn did); absent when neither did (no Restore to before this prompt).
   */
  readonly changes?: string;
  /** Images of the message (data URIs are built from these; nothing else is loaded). */
  readonly images?: readonly ChatImage[];
}

export interface ChatImage {
  readonly mimeType: string;
  /** Base64. */
  readonly data: string;
}

export interface ChatToolItem {
  readonly kind: 'toolCall';
  readonly toolCallId: string;
  /** Paths relative to the workspace. */
  readonly title: string;
  /** A codicon name for the tool kind. */
  readonly icon: string;
  readonly status: ChatToolStatus;
  /**
   * What the row's open button shows; absent: the call in the Tool Calls tree. (A storm sends
   * thousands of rows: what the webview can derive or default is not sent. Its status label is
   * `toolStatusLabel(status)`.)
   */
  readonly opens?: Exclude<ChatToolTarget, 'tree'>;
  /** Images in the call's content (a screenshot tool's result…). */
  readonly images?: readonly ChatImage[];
}

/** A plan the agent named (`plan_update`), rendered where it first came and replaced in place. */
export interface ChatPlanItem {
  readonly kind: 'plan';
  readonly planId: string;
  readonly planType: 'markdown' | 'file' | 'items';
  /** A markdown plan's text, or its start when long (`cut`). */
  readonly text?: string;
  /** The card shows the first `shown` of `total` characters; Open shows them all. */
  readonly cut?: { readonly shown: number; readonly total: number };
  /** A file plan's file as displayed (relative inside the workspace), or its URI. */
  readonly file?: string;
  /** An items plan's entries. */
  readonly entries?: readonly ChatPlanEntry[];
  /** **Open** shows it (a markdown preview, or the plan's file). */
  readonly openable: boolean;
  /** The agent removed it (`plan_removed`): the row shows nothing. */
  readonly removed?: true;
}

export interface ChatPlanEntry {
  readonly content: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

/** A context compaction: a divider in the conversation with its summary, folded. */
export interface ChatCompactionItem {
  readonly kind: 'compaction';
  readonly compactionId: string;
  /** `in_progress`, `completed`, `failed`, `cancelled`, or newer. */
  readonly status: string;
  /** The summary, or its start when long (`summaryCut`). */
  readonly summary?: string;
  readonly summaryCut?: true;
  readonly error?: string;
  /** "180k → 40k tokens", when the agent said. */
  readonly tokens?: string;
  /** Its turn ended with it in progress: it never completed. */
  readonly unfinished?: true;
}

/** A notice (`notice`, or what an agent sent instead): a severity icon, a title, a description. */
export interface ChatNoticeItem {
  readonly kind: 'notice';
  /** `info`, `warning`, `error`, or newer. */
  readonly severity: string;
  readonly title: string;
  readonly description: string | null;
  /** It came this many times in a row (absent: once). */
  readonly count?: number;
}

/** A row of a subagent's block: one of the child's tool calls. */
export interface ChatSubagentTool {
  readonly toolCallId: string;
  readonly title: string;
  readonly icon: string;
  readonly status: ChatToolStatus;
}

/**
 * A subagent (a child session) in its parent's conversation: a collapsible block with the prompt
 * it was given, its text, its tool rows, its report, and its own children.
 */
export interface ChatSubagentItem {
  readonly kind: 'subagent';
  /** The child's session id (the editor's): Stop and the rows' clicks name it. */
  readonly sessionId: string;
  readonly title: string;
  readonly description?: string;
  /** `running`, `requires_action`, `idle`, `unknown`, `unset`. */
  readonly activity: string;
  /** "running", "needs you", "idle (end_turn)", "running in the background". */
  readonly state: string;
  readonly background?: true;
  /** Stop cancels it alone (the agent allows it and it runs). */
  readonly canStop?: true;
  readonly prompt?: string;
  /** The child's own text (its end, when long). */
  readonly text?: string;
  /** Its latest tool calls; `moreTools` earlier ones are in the Tool Calls tree. */
  readonly tools: readonly ChatSubagentTool[];
  readonly moreTools?: number;
  readonly report?: string;
  readonly toolsUsed?: string;
  /** It could not open (its id is another open session's). */
  readonly error?: string;
  readonly children?: readonly ChatSubagentItem[];
}

export type ChatItem = ChatMessageItem | ChatToolItem | ChatPlanItem | ChatCompactionItem | ChatNoticeItem | ChatSubagentItem;

const TOOL_STATUS_LABELS: Readonly<Record<ChatToolStatus, string>> = { pending: 'pending', in_progress: 'running', completed: 'done', failed: 'failed' };

/** What a tool row's status chip says (the Tool Calls tree says the same). */
export function toolStatusLabel(status: ChatToolStatus): string {
  return TOOL_STATUS_LABELS[status] ?? status;
}

/** One change of a patch: a whole item (new or changed), or the text a message's `text` grew by. */
export type ChatChange = { readonly index: number; readonly item: ChatItem } | { readonly index: number; readonly append: string };

/**
 * A tool row as it travels: `[toolCallId, title, icon, status]`, then what its open button shows
 * when not the tree. A row with images travels as a whole `ChatToolItem`.
 */
export type ChatToolRow = readonly [toolCallId: string, title: string, icon: string, status: ChatToolStatus, opens?: Exclude<ChatToolTarget, 'tree'>];

/** An item as it travels: a tool row packed (see `ChatToolRow`), anything else as it is. */
export type ChatWireItem = ChatItem | ChatToolRow;

/** A change as it travels: the items from `index` on (consecutive changed items in one run), or the text a message grew by. */
export type ChatWireChange = { readonly index: number; readonly items: readonly ChatWireItem[] } | { readonly index: number; readonly append: string };

export function packItem(item: ChatItem): ChatWireItem {
  if (item.kind !== 'toolCall' || item.images) return item;
  return item.opens ? [item.toolCallId, item.title, item.icon, item.status, item.opens] : [item.toolCallId, item.title, item.icon, item.status];
}

export function unpackItem(wire: ChatWireItem): ChatItem {
  if (!Array.isArray(wire)) return wire as ChatItem;
  const [toolCallId, title, icon, status, opens] = wire as ChatToolRow;
  return opens ? { kind: 'toolCall', toolCallId, title, icon, status, opens } : { kind: 'toolCall', toolCallId, title, icon, status };
}

/** Changes sorted by index as they travel: each run of consecutive whole items as one change, tool rows packed. */
export function packChanges(changes: readonly ChatChange[]): ChatWireChange[] {
  const wire: ChatWireChange[] = [];
  let run: ChatWireItem[] | undefined;
  let next = -1;
  for (const change of changes) {
    if ('append' in change) {
      run = undefined;
      wire.push(change);
      continue;
    }
    const item = packItem(change.item);
    if (run && change.index === next) run.push(item);
    else wire.push({ index: change.index, items: (run = [item]) });
    next = change.index + 1;
  }
  return wire;
}

/**
 * Whether a patch only brings text: messages added or grown. Such a patch is not what a window
 * falls behind on (tool rows are): its late acknowledgement (a long markdown message renders
 * late) must not slow the chat down, or a text stream settles later than without the loop.
 */
export function onlyText(changes: readonly ChatChange[]): boolean {
  return changes.length > 0 && changes.every((c) => 'append' in c || c.item.kind === 'message');
}

export function unpackChanges(wire: readonly ChatWireChange[]): ChatChange[] {
  const changes: ChatChange[] = [];
  for (const change of wire) {
    if ('append' in change) changes.push(change);
    else change.items.forEach((item, k) => changes.push({ index: change.index + k, item: unpackItem(item) }));
  }
  return changes;
}

export interface ChatPermission {
  readonly questionId: number;
  readonly toolCallId: string;
  readonly title: string;
  /** The agent's options, each its own button: several may share a kind (Claude's plan approval). */
  readonly options: readonly { readonly id: string; readonly name: string; readonly kind: ChatPermissionKind }[];
  /** A button that shows more without answering (the editor's Compare), or null. */
  readonly inspect?: string | null;
  /** The hunks of the proposed edit, when it can be answered in part (**Review hunks**). */
  readonly hunks?: number | null;
}

export interface ChatChoice {
  readonly id: string;
  readonly name: string;
}

export interface ChatSelect {
  readonly id: string;
  readonly name: string;
  /** Shown as the picker's tooltip. */
  readonly description: string | null;
  /** The option's category (`mode`, `model`, `thought_level`…): mode and model sit under the prompt. */
  readonly category: string | null;
  readonly currentValue: string;
  readonly options: readonly ChatChoice[];
}

/** A boolean config option (`session.configOptions.boolean`): a toggle under the prompt. */
export interface ChatToggle {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly value: boolean;
}

/** How full the context window is (`usage_update`), for the meter under the prompt. */
export interface ChatContext {
  /** Tokens in context and the window's size; null until the agent says. */
  readonly used: number | null;
  readonly size: number | null;
  /** `used / size`, at most 1; null when either is unknown or the size is 0. */
  readonly fraction: number | null;
  /** Amber from 80 %, red from 95 % (and when `used` passes `size`). */
  readonly level: 'normal' | 'warning' | 'critical';
  /** "123k / 200k (62 %)". */
  readonly label: string;
  /** The tooltip: the exact numbers, and the cost when the agent sent one. */
  readonly detail: string;
  /** The agent offers a `/compact` command. */
  readonly canCompact: boolean;
}

/** One field of an agent's form (`elicitation/create`), read from its JSON schema. */
export type ChatFormField = {
  readonly key: string;
  readonly title: string;
  readonly description: string | null;
  readonly required: boolean;
} & (
  | {
      readonly kind: 'string';
      readonly default: string | null;
      readonly minLength: number | null;
      readonly maxLength: number | null;
      readonly pattern: string | null;
      readonly format: string | null;
    }
  | { readonly kind: 'number' | 'integer'; readonly default: number | null; readonly minimum: number | null; readonly maximum: number | null }
  | { readonly kind: 'boolean'; readonly default: boolean | null }
  | { readonly kind: 'enum'; readonly default: string | null; readonly options: readonly { readonly value: string; readonly title: string }[] }
);

/** A form the agent asks to be filled in, answered in the chat. */
export interface ChatElicitation {
  readonly id: number;
  readonly message: string;
  readonly fields: readonly ChatFormField[];
  /** Errors of the last answer, by field key. */
  readonly errors: Readonly<Record<string, string>>;
  /** A URL form (no fields): what Open opens; `waiting` once accepted, until the agent completes it. */
  readonly url?: { readonly href: string; readonly host: string; readonly waiting: boolean };
}

export interface ChatMention {
  /** Workspace-relative, `/`-separated. */
  readonly path: string;
  readonly isFolder: boolean;
  readonly open: boolean;
}

export type ChatElicitationAction = 'accept' | 'decline' | 'cancel';

/** Images above this are refused in the prompt (before base64) and not shown in the conversation. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** A prompt waiting in the session's queue (sent when the running turn ends). */
export interface ChatQueuedPrompt {
  readonly id: string;
  readonly text: string;
  /** Its chips, by name. */
  readonly attachments: readonly string[];
  /** Why it is here (a steer the agent did not take…), if not plainly queued. */
  readonly note: string | null;
}

/** The session's prompt queue, above the prompt box. */
export interface ChatQueue {
  readonly items: readonly ChatQueuedPrompt[];
  /** Why the queue waits for Resume or Clear; null while it flows. */
  readonly waiting: string | null;
  /** The agent takes messages during a turn: Enter steers, Alt+Enter queues. */
  readonly steering: boolean;
}

/** One open session in the chat header's switcher. */
export interface ChatSessionEntry {
  readonly sessionId: string;
  readonly agentName: string;
  readonly title: string;
  readonly activity: Exclude<ChatActivity, 'none'>;
  /** The session the chat shows. */
  readonly shown: boolean;
}

export interface ChatStatus {
  readonly agentName: string | null;
  readonly sessionId: string | null;
  readonly title: string | null;
  readonly activity: ChatActivity;
  readonly modes: readonly ChatChoice[];
  readonly currentModeId: string | null;
  /** Select-type config options (model, reasoning level…). */
  readonly configOptions: readonly ChatSelect[];
  /** Boolean config options, as toggles. */
  readonly toggles: readonly ChatToggle[];
  readonly commands: readonly { readonly name: string; readonly description: string; readonly hint: string | null }[];
  readonly plan: readonly { readonly content: string; readonly status: 'pending' | 'in_progress' | 'completed' }[];
  readonly permissions: readonly ChatPermission[];
  /** The context window's meter; null without a session. */
  readonly context: ChatContext | null;
  /** Context chips that the next prompt carries. */
  readonly attachments: readonly ChatChoice[];
  /** The agent's open forms (elicitation). */
  readonly elicitations: readonly ChatElicitation[];
  /** The agent takes images in prompts (`promptCapabilities.image`). */
  readonly acceptsImages: boolean;
  /** Every open session, for the switcher (several agents may run at once). */
  readonly sessions: readonly ChatSessionEntry[];
  readonly queue: ChatQueue;
}

export type HostToWebview =
  | {
      readonly v: number;
      readonly type: 'reset';
      readonly status: ChatStatus;
      readonly items: readonly ChatWireItem[];
      /**
       * Only the first items: the rest follow in patches, the last of them without `more`. The
       * webview keeps showing what it had until then (a long session is sent over several
       * event-loop turns, never as one message blocking the extension host).
       */
      readonly more?: true;
    }
  | {
      readonly v: number;
      readonly type: 'patch';
      /** The list's length after the patch. */
      readonly length: number;
      readonly changed: readonly ChatWireChange[];
      /** Cut short: more changes follow at once (it completes a reset with `more`). */
      readonly more?: true;
      /**
       * The webview answers `ack` with this number once it drew the patch: how late it answers is
       * how far the window is behind (the host then sends patches further apart; pacing/).
       */
      readonly seq?: number;
    }
  | { readonly v: number; readonly type: 'status'; readonly status: ChatStatus }
  /**
   * While the window catches up with a storm, a line that says how far the session is ("4,812
   * calls, showing the newest"), kept current at low cost; `null` once it caught up.
   */
  | { readonly v: number; readonly type: 'progress'; readonly text: string | null }
  | { readonly v: number; readonly type: 'focusPrompt' }
  /**
   * A prompt (or an attachment) refused unsent, over `acpNative.prompt.maxBytes`: the reason is
   * shown under the prompt box, and the refused text goes back into the box when it is empty.
   */
  | { readonly v: number; readonly type: 'promptRefused'; readonly reason: string; readonly text?: string }
  | { readonly v: number; readonly type: 'mentionResults'; readonly requestId: number; readonly items: readonly ChatMention[] };

export type WebviewToHost =
  | { readonly v: number; readonly type: 'ready' }
  /** The patch numbered `seq` (and every one before it) is drawn. */
  | { readonly v: number; readonly type: 'ack'; readonly seq: number }
  /** The page gained or lost the keyboard. */
  | { readonly v: number; readonly type: 'focusChanged'; readonly focused: boolean }
  /** `send`: sent, or during a turn steered (queued when the agent cannot be steered); `queue`: queued during a turn. */
  | { readonly v: number; readonly type: 'prompt'; readonly text: string; readonly how: 'send' | 'queue' }
  | { readonly v: number; readonly type: 'queueEdit'; readonly id: string; readonly text: string }
  | { readonly v: number; readonly type: 'queueRemove'; readonly id: string }
  | { readonly v: number; readonly type: 'queueMove'; readonly id: string; readonly to: number }
  /** Steer with it now (the agent takes steering), else cancel the turn and send it. */
  | { readonly v: number; readonly type: 'queueSendNow'; readonly id: string }
  | { readonly v: number; readonly type: 'queueResume' }
  | { readonly v: number; readonly type: 'queueClear' }
  | { readonly v: number; readonly type: 'cancel' }
  | { readonly v: number; readonly type: 'answerPermission'; readonly questionId: number; readonly optionKind: ChatPermissionKind; readonly optionId: string }
  | { readonly v: number; readonly type: 'inspectPermission'; readonly questionId: number }
  /** Review hunks: the proposed edit's diff with Keep / Reject over each hunk. */
  | { readonly v: number; readonly type: 'reviewHunks'; readonly questionId: number }
  /** Reject…: asks for an optional one-line reason, told the agent. */
  | { readonly v: number; readonly type: 'rejectWithReason'; readonly questionId: number }
  | { readonly v: number; readonly type: 'openToolCall'; readonly toolCallId: string; readonly target: 'editor' | 'tree' }
  | { readonly v: number; readonly type: 'setMode'; readonly modeId: string }
  /** A select's value id, or a toggle's boolean. */
  | { readonly v: number; readonly type: 'setConfigOption'; readonly configId: string; readonly value: string | boolean }
  /** A plan card's Open: the plan whole (a markdown preview, or its file). */
  | { readonly v: number; readonly type: 'openPlan'; readonly planId: string }
  /** The meter's Compact: the agent's `/compact` command. */
  | { readonly v: number; readonly type: 'compact' }
  /** The meter's New session from summary. */
  | { readonly v: number; readonly type: 'newSessionFromSummary' }
  | { readonly v: number; readonly type: 'attach'; readonly what: 'file' | 'selection' }
  | { readonly v: number; readonly type: 'detach'; readonly id: string }
  | { readonly v: number; readonly type: 'newSession' }
  | { readonly v: number; readonly type: 'history' }
  | { readonly v: number; readonly type: 'pickAgent' }
  /** "New Session with Agent…": a session with another agent; the running ones keep running. */
  | { readonly v: number; readonly type: 'newSessionWithAgent' }
  /** The switcher: show another open session. */
  | { readonly v: number; readonly type: 'switchSession'; readonly sessionId: string }
  /** The switcher's close button: close an open session (its turn is cancelled first). */
  | { readonly v: number; readonly type: 'closeSession'; readonly sessionId: string }
  /** Stop one running subagent (its child session), not the parent's turn. */
  | { readonly v: number; readonly type: 'stopSubagent'; readonly sessionId: string }
  /** "Restore to before this prompt" on a user message. */
  | { readonly v: number; readonly type: 'restoreCheckpoint'; readonly turn: number }
  /** Edit & resend on a user message: restore to before it, then go on from there with `text`. */
  | { readonly v: number; readonly type: 'resend'; readonly turn: number; readonly text: string }
  /** The turn's changes in the multi-diff editor. */
  | { readonly v: number; readonly type: 'reviewTurn'; readonly turn: number }
  | { readonly v: number; readonly type: 'mentionQuery'; readonly requestId: number; readonly query: string }
  | { readonly v: number; readonly type: 'mention'; readonly path: string; readonly isFolder: boolean }
  | { readonly v: number; readonly type: 'attachImage'; readonly name: string; readonly mimeType: string; readonly data: string }
  | {
      readonly v: number;
      readonly type: 'answerElicitation';
      readonly id: number;
      readonly action: ChatElicitationAction;
      readonly answers: Readonly<Record<string, string | boolean>>;
    };

/** What the page asks of the host; the panel keeps the rest (`ready`, `ack`, `focusChanged`) to itself. */
export type WebviewRequest = Exclude<WebviewToHost, { type: 'ready' | 'ack' | 'focusChanged' }>;

export type ParseResult<T> = { readonly ok: true; readonly message: T } | { readonly ok: false; readonly error: string };

/**
 * A hard guard on the prompt message from the webview (characters): above the largest
 * `acpNative.prompt.maxBytes`, so the host can refuse an oversized prompt with its size instead
 * of dropping the message.
 */
export const MAX_PROMPT_CHARS = 32 * 1024 * 1024;
const MAX_ID_CHARS = 1_000;

type Fields = Record<string, unknown>;

function fail<T>(error: string): ParseResult<T> {
  return { ok: false, error };
}

function envelope(value: unknown): { fields: Fields; type: string } | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const fields = value as Fields;
  if (fields.v !== CHAT_PROTOCOL_VERSION) return `protocol version ${String(fields.v)} (expected ${CHAT_PROTOCOL_VERSION})`;
  if (typeof fields.type !== 'string') return 'no message type';
  return { fields, type: fields.type };
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS;
const PERMISSION_KINDS: readonly string[] = ['allow_once', 'allow_always', 'reject_once', 'reject_always'];

/** Validates a message the webview posted. */
export function parseWebviewMessage(value: unknown): ParseResult<WebviewToHost> {
  const head = envelope(value);
  if (typeof head === 'string') return fail(head);
  const { fields: f, type } = head;
  const ok = (message: WebviewToHost): ParseResult<WebviewToHost> => ({ ok: true, message });
  const v = CHAT_PROTOCOL_VERSION;
  switch (type) {
    case 'ready':
    case 'cancel':
    case 'newSession':
    case 'history':
    case 'pickAgent':
    case 'newSessionWithAgent':
    case 'compact':
    case 'newSessionFromSummary':
    case 'queueResume':
    case 'queueClear':
      return ok({ v, type });
    case 'ack':
      return Number.isSafeInteger(f.seq) && (f.seq as number) > 0 ? ok({ v, type, seq: f.seq as number }) : fail('ack: bad seq');
    case 'focusChanged':
      return typeof f.focused === 'boolean' ? ok({ v, type, focused: f.focused }) : fail('focusChanged: focused is not a boolean');
    case 'queueRemove':
    case 'queueSendNow':
      return isId(f.id) ? ok({ v, type, id: f.id }) : fail(`${type}: bad id`);
    case 'queueEdit':
      if (!isId(f.id)) return fail('queueEdit: bad id');
      if (typeof f.text !== 'string' || !f.text.trim()) return fail('queueEdit: empty text');
      if (f.text.length > MAX_PROMPT_CHARS) return fail(`queueEdit: longer than ${MAX_PROMPT_CHARS} characters`);
      return ok({ v, type, id: f.id, text: f.text });
    case 'queueMove':
      if (!isId(f.id)) return fail('queueMove: bad id');
      return Number.isSafeInteger(f.to) && (f.to as number) >= 0 ? ok({ v, type, id: f.id, to: f.to as number }) : fail('queueMove: bad position');
    case 'openPlan':
      return isId(f.planId) ? ok({ v, type, planId: f.planId }) : fail('openPlan: bad planId');
    case 'switchSession':
    case 'closeSession':
    case 'stopSubagent':
      return isId(f.sessionId) ? ok({ v, type, sessionId: f.sessionId }) : fail(`${type}: bad sessionId`);
    case 'prompt':
      if (typeof f.text !== 'string' || !f.text.trim()) return fail('prompt: empty text');
      if (f.text.length > MAX_PROMPT_CHARS) return fail(`prompt: longer than ${MAX_PROMPT_CHARS} characters`);
      if (f.how !== undefined && f.how !== 'send' && f.how !== 'queue') return fail('prompt: how must be send or queue');
      return ok({ v, type, text: f.text, how: f.how === 'queue' ? 'queue' : 'send' });
    case 'answerPermission':
      if (!Number.isSafeInteger(f.questionId)) return fail('answerPermission: questionId is not an integer');
      if (typeof f.optionKind !== 'string' || !PERMISSION_KINDS.includes(f.optionKind)) return fail('answerPermission: unknown option kind');
      if (typeof f.optionId !== 'string') return fail('answerPermission: optionId is not a string');
      return ok({ v, type, questionId: f.questionId as number, optionKind: f.optionKind as ChatPermissionKind, optionId: f.optionId });
    case 'inspectPermission':
    case 'reviewHunks':
    case 'rejectWithReason':
      if (!Number.isSafeInteger(f.questionId)) return fail(`${type}: questionId is not an integer`);
      return ok({ v, type, questionId: f.questionId as number });
    case 'openToolCall':
      if (!isId(f.toolCallId)) return fail('openToolCall: bad toolCallId');
      if (f.target !== 'editor' && f.target !== 'tree') return fail('openToolCall: target must be editor or tree');
      return ok({ v, type, toolCallId: f.toolCallId, target: f.target });
    case 'setMode':
      return isId(f.modeId) ? ok({ v, type, modeId: f.modeId }) : fail('setMode: bad modeId');
    case 'setConfigOption':
      return isId(f.configId) && (isId(f.value) || typeof f.value === 'boolean') ? ok({ v, type, configId: f.configId, value: f.value }) : fail('setConfigOption: bad id or value');
    case 'attach':
      return f.what === 'file' || f.what === 'selection' ? ok({ v, type, what: f.what }) : fail('attach: what must be file or selection');
    case 'detach':
      return isId(f.id) ? ok({ v, type, id: f.id }) : fail('detach: bad id');
    case 'restoreCheckpoint':
    case 'reviewTurn':
      return Number.isSafeInteger(f.turn) && (f.turn as number) >= 0 ? ok({ v, type, turn: f.turn as number }) : fail(`${type}: bad turn`);
    case 'resend':
      if (!Number.isSafeInteger(f.turn) || (f.turn as number) < 0) return fail('resend: bad turn');
      if (typeof f.text !== 'string' || f.text.length > MAX_PROMPT_CHARS) return fail('resend: bad text');
      return ok({ v, type, turn: f.turn as number, text: f.text });
    case 'mentionQuery':
      if (!Number.isSafeInteger(f.requestId)) return fail('mentionQuery: requestId is not an integer');
      if (typeof f.query !== 'string' || f.query.length > MAX_ID_CHARS) return fail('mentionQuery: bad query');
      return ok({ v, type, requestId: f.requestId as number, query: f.query });
    case 'mention':
      if (!isId(f.path) || typeof f.isFolder !== 'boolean') return fail('mention: bad path');
      if (f.path.startsWith('/') || f.path.split('/').includes('..')) return fail('mention: the path must be inside the workspace');
      return ok({ v, type, path: f.path, isFolder: f.isFolder });
    case 'attachImage':
      if (typeof f.name !== 'string' || f.name.length > MAX_ID_CHARS) return fail('attachImage: bad name');
      if (typeof f.mimeType !== 'string' || !IMAGE_MIME.test(f.mimeType)) return fail('attachImage: not an image type');
      if (typeof f.data !== 'string' || !BASE64.test(f.data)) return fail('attachImage: data is not base64');
      if ((f.data.length * 3) / 4 > MAX_IMAGE_BYTES) return fail(`attachImage: larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
      return ok({ v, type, name: f.name, mimeType: f.mimeType, data: f.data });
    case 'answerElicitation': {
      if (!Number.isSafeInteger(f.id)) return fail('answerElicitation: id is not an integer');
      if (f.action !== 'accept' && f.action !== 'decline' && f.action !== 'cancel') return fail('answerElicitation: unknown action');
      const answers: Record<string, string | boolean> = {};
      if (typeof f.answers !== 'object' || f.answers === null || Array.isArray(f.answers)) return fail('answerElicitation: answers is not an object');
      for (const [key, value] of Object.entries(f.answers as Fields)) {
        if (typeof value !== 'string' && typeof value !== 'boolean') return fail(`answerElicitation: answer "${key}" is not text or a boolean`);
        if (typeof value === 'string' && value.length > MAX_ID_CHARS * 100) return fail(`answerElicitation: answer "${key}" is too long`);
        answers[key] = value;
      }
      return ok({ v, type, id: f.id as number, action: f.action, answers });
    }
    default:
      return fail(`unknown message type "${type}"`);
  }
}

/**
 * Validates a message from the host. Shallow on purpose: the host is trusted code; this catches a
 * version skew (a webview restored from an older build) and a wrong shape, not an attacker.
 */
export function parseHostMessage(value: unknown): ParseResult<HostToWebview> {
  const head = envelope(value);
  if (typeof head === 'string') return fail(head);
  const { fields: f, type } = head;
  const isObject = (x: unknown) => typeof x === 'object' && x !== null;
  switch (type) {
    case 'reset':
      if (!isObject(f.status) || !Array.isArray(f.items) || !f.items.every(isWireItem)) return fail('reset: bad status or items');
      return { ok: true, message: value as HostToWebview };
    case 'patch':
      if (!Number.isSafeInteger(f.length) || (f.length as number) < 0 || !Array.isArray(f.changed)) return fail('patch: bad length or changes');
      if (f.seq !== undefined && !(Number.isSafeInteger(f.seq) && (f.seq as number) > 0)) return fail('patch: bad seq');
      for (const change of f.changed as unknown[]) {
        const c = change as { index?: unknown; items?: unknown; append?: unknown } | null;
        if (!c || !Number.isSafeInteger(c.index) || (c.index as number) < 0) return fail('patch: bad change');
        // The last index the change writes: a run of items ends where it has items.
        const items = typeof c.append === 'string' ? 1 : Array.isArray(c.items) && c.items.length > 0 && c.items.every(isWireItem) ? c.items.length : 0;
        if (items === 0 || (c.index as number) + items > (f.length as number)) return fail('patch: bad change');
      }
      return { ok: true, message: value as HostToWebview };
    case 'status':
      return isObject(f.status) ? { ok: true, message: value as HostToWebview } : fail('status: no status');
    case 'progress':
      return f.text === null || typeof f.text === 'string' ? { ok: true, message: value as HostToWebview } : fail('progress: bad text');
    case 'focusPrompt':
      return { ok: true, message: value as HostToWebview };
    case 'promptRefused':
      return typeof f.reason === 'string' && (f.text === undefined || typeof f.text === 'string') ? { ok: true, message: value as HostToWebview } : fail('promptRefused: bad reason');
    case 'mentionResults':
      return Number.isSafeInteger(f.requestId) && Array.isArray(f.items) ? { ok: true, message: value as HostToWebview } : fail('mentionResults: bad items');
    default:
      return fail(`unknown message type "${type}"`);
  }
}

/**
 * Applies a patch to a list of items, in place: what the webview does with the items of a reset
 * still coming in parts (and what the tests replay to check that parts leave no gap).
 */
export function applyChatPatch(items: ChatItem[], length: number, changed: readonly ChatChange[]): void {
  if (length < items.length) items.length = length;
  for (const change of changed) {
    if ('append' in change) {
      const item = items[change.index];
      if (item?.kind === 'message') items[change.index] = { ...item, text: item.text + change.append };
      continue;
    }
    items[change.index] = change.item;
  }
}

const TOOL_STATUSES: readonly unknown[] = Object.keys(TOOL_STATUS_LABELS);
const TOOL_TARGETS: readonly unknown[] = [undefined, 'diff', 'terminal'];

function isWireItem(value: unknown): value is ChatWireItem {
  if (!Array.isArray(value)) return isChatItem(value);
  const [toolCallId, title, icon, status, opens] = value as unknown[];
  return (value.length === 4 || value.length === 5) && typeof toolCallId === 'string' && typeof title === 'string' && typeof icon === 'string' && TOOL_STATUSES.includes(status) && TOOL_TARGETS.includes(opens);
}

function isChatItem(value: unknown): value is ChatItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Fields;
  switch (item.kind) {
    case 'message':
      return (item.role === 'user' || item.role === 'agent' || item.role === 'thought') && typeof item.text === 'string' && Array.isArray(item.attachments);
    case 'toolCall':
      return typeof item.toolCallId === 'string' && typeof item.title === 'string' && typeof item.status === 'string';
    case 'plan':
      return typeof item.planId === 'string' && typeof item.planType === 'string' && typeof item.openable === 'boolean';
    case 'compaction':
      return typeof item.compactionId === 'string' && typeof item.status === 'string';
    case 'notice':
      return typeof item.severity === 'string' && typeof item.title === 'string';
    case 'subagent':
      return typeof item.sessionId === 'string' && typeof item.title === 'string' && typeof item.state === 'string' && Array.isArray(item.tools);
    default:
      return false;
  }
}
