/** DOM for the chat's items and its status panels. Text goes in through textContent; only the markdown renderer produces HTML. */
import { toolStatusLabel, type ChatElicitation, type ChatElicitationAction, type ChatFormField, type ChatImage, type ChatItem, type ChatStatus, type ChatToolItem, type WebviewToHost } from '../../src/protocol/chat';
import { MAX_MARKDOWN_CHARS } from './markdown';
import { StreamingMarkdown, type MarkdownUpdate } from './markdownStream';
import { logWork } from './workLog';
import { renderPlanCard } from './plan';
import { renderCompaction } from './compaction';
import { renderNotice } from './notice';
import { renderSubagent } from './subagent';

export type Post = (message: WebviewToHost) => void;

/** Codicon names (as the host sends them) to glyphs: the webview ships no icon font. */
export const GLYPHS: Record<string, string> = {
  book: '≡', edit: '✎', trash: '✕', 'arrow-swap': '⇄', search: '⌕', terminal: '›', lightbulb: '✱',
  globe: '◍', 'arrow-both': '↔', diff: '±', tools: '⚙',
};

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Fills a row for an item; false when part of a long message's text is left for the next frame. */
export function renderItem(row: HTMLElement, item: ChatItem, post: Post, v: number): boolean {
  switch (item.kind) {
    case 'message':
      return renderMessage(row, item, post, v);
    case 'toolCall':
      renderTool(row, item, post, v);
      return true;
    case 'plan':
      renderPlanCard(row, item, post, v);
      return true;
    case 'compaction':
      renderCompaction(row, item);
      return true;
    case 'notice':
      renderNotice(row, item);
      return true;
    case 'subagent':
      renderSubagent(row, item, post, v);
      return true;
  }
}

/**
 * Renders what was appended to a message (`added`, the text it grew by since the row's last
 * render) into what the row shows, without reading the whole text; a full render when the row
 * does not show that message (or not the text before `added`).
 */
export function growItem(row: HTMLElement, item: ChatItem, added: string, post: Post, v: number): boolean {
  const rendered = renderedMessages.get(row);
  if (item.kind === 'message' && rendered && sameMessage(rendered.item, item)) {
    renderedMessages.set(row, { item, body: rendered.body });
    return appendMarkdownInto(rendered.body, item.text, added);
  }
  return renderItem(row, item, post, v);
}

/** What a row shows of a streamed message, kept so that the next text can be rendered into it. */
interface RenderedMessage {
  readonly item: Extract<ChatItem, { kind: 'message' }>;
  /** The `.markdown` element the text is rendered into. */
  readonly body: HTMLElement;
}
const renderedMessages = new WeakMap<HTMLElement, RenderedMessage>();

/** The same message with more text (the list keeps its other fields as they were). */
function sameMessage(shown: Extract<ChatItem, { kind: 'message' }>, item: Extract<ChatItem, { kind: 'message' }>): boolean {
  return shown.role === item.role && shown.attachments === item.attachments && shown.images === item.images && item.role !== 'user';
}

function renderMessage(row: HTMLElement, item: Extract<ChatItem, { kind: 'message' }>, post: Post, v: number): boolean {
  // The same message with more text (the list keeps its other fields as they were): render only
  // what changed into the body that is there.
  const rendered = renderedMessages.get(row);
  if (rendered && sameMessage(rendered.item, item)) {
    renderedMessages.set(row, { item, body: rendered.body });
    return renderMarkdownInto(rendered.body, item.text);
  }
  renderedMessages.delete(row);
  const chips = item.attachments.map((a) => el('span', 'chip', a));
  const images = imageStrip(item.images);
  switch (item.role) {
    case 'user': {
      const draft = item.turn === undefined ? undefined : drafts.get(item.turn);
      if (draft !== undefined && item.turn !== undefined) {
        editedMessages.set(row, item);
        const editor = row.querySelector<HTMLElement>(':scope > .resend');
        if (editor?.dataset.turn === String(item.turn)) {
          // The row changes while its message is edited (the turn's changes arrive): a rebuilt
          // box would take the focus and the caret from the person typing in it.
          for (const child of [...row.children]) if (child !== editor) child.remove();
          editor.after(...chips, ...images);
        } else {
          row.replaceChildren(resendEditor(row, item.turn, draft, post, v), ...chips, ...images);
        }
        return true;
      }
      const bubble = el('div', 'bubble user', item.text);
      row.replaceChildren(bubble, ...chips, ...images, ...checkpoint(row, item, post, v));
      return true;
    }
    case 'agent': {
      const body = el('div', 'markdown');
      const done = renderMarkdownInto(body, item.text);
      row.replaceChildren(body, ...chips, ...images);
      renderedMessages.set(row, { item, body });
      return done;
    }
    case 'thought': {
      // Collapsed: a person opens a thought when they want it; the open state survives updates.
      const existing = row.querySelector('details');
      const details = el('details', 'thought');
      details.open = existing?.open ?? false;
      const summary = el('summary', undefined, 'Thinking');
      const body = el('div', 'markdown');
      const done = renderMarkdownInto(body, item.text);
      details.append(summary, body);
      row.replaceChildren(details);
      renderedMessages.set(row, { item, body });
      return done;
    }
  }
}

interface BodyStream {
  markdown: StreamingMarkdown;
  /** Text given for the body but not rendered yet: a burst is rendered a step a frame (see `stepChars`). */
  pending: string;
  /** Child nodes of the body that are finished blocks (the open end's nodes follow them). */
  finishedNodes: number;
  /** Plain text: the piece text is appended to, and its length. */
  piece: HTMLElement | undefined;
  pieceLength: number;
  /** A finished wrapper to seal, and the one after it: sealed at the next step, while the layout is clean (see `seal`). */
  toSeal: readonly [HTMLElement, HTMLElement] | undefined;
}
const streams = new WeakMap<HTMLElement, BodyStream>();

/**
 * Plain text is kept in pieces of about this many characters, each its own block cut after a line
 * break: appending lays out and paints the last piece, not a megabyte of text in one block.
 */
const PLAIN_PIECE_CHARS = 4096;

/**
 * How much new markdown is parsed and laid out per frame: a long message (opened, or a burst of
 * text) appears over a few frames instead of in one long task. 16 KB a frame took 50–100 ms on a
 * loaded 2-core machine (parse, DOM, layout of the new blocks), so the step starts at 2 KB and
 * follows what a step costs here and now (STEP_BUDGET_MS): halved when slower, doubled when well
 * under, between the bounds. Even 1 KB a frame renders 60 KB/s, faster than agents write.
 */
const MIN_STEP_CHARS = 1024;
/**
 * The cost measured is the parse and DOM work only; the layout of the new blocks comes after it
 * (the scroll to the end forces it): at 8 KB it took 105 ms in a trace at load 9 (33 ms of CPU).
 */
const MAX_STEP_CHARS = 4096;
/** What a step's parse and DOM work may take (the frame's layout and paint come on top). */
const STEP_BUDGET_MS = 6;
let stepChars = 2048;

function streamOf(body: HTMLElement): BodyStream {
  let stream = streams.get(body);
  if (!stream) {
    stream = { markdown: new StreamingMarkdown(), pending: '', finishedNodes: 0, piece: undefined, pieceLength: 0, toSeal: undefined };
    streams.set(body, stream);
  }
  return stream;
}

/**
 * Renders markdown into `body`, incrementally when `text` extends what it shows: the nodes of
 * finished blocks stay as they are, only the open end's nodes are replaced. False when only a
 * part of the new text was rendered (see `stepChars`): call again on a later frame.
 */
export function renderMarkdownInto(body: HTMLElement, text: string): boolean {
  const stream = streamOf(body);
  const shown = stream.markdown.text;
  if (text.startsWith(shown)) {
    stream.pending = text.slice(shown.length);
  } else {
    body.replaceChildren();
    Object.assign(stream, { markdown: new StreamingMarkdown(), pending: text, finishedNodes: 0, piece: undefined, pieceLength: 0, toSeal: undefined });
  }
  return renderStep(body, stream);
}

/**
 * Renders `added`, appended to what `body` was given before, when `text` (only its length is read)
 * is that; otherwise all of `text`. Growth never reads the whole text: see StreamingMarkdown.
 */
export function appendMarkdownInto(body: HTMLElement, text: string, added: string): boolean {
  const stream = streams.get(body);
  if (!stream || stream.markdown.length + stream.pending.length + added.length !== text.length) return renderMarkdownInto(body, text);
  stream.pending += added;
  return renderStep(body, stream);
}

/** Renders the next step of the pending text; false when some is left for a later frame. */
function renderStep(body: HTMLElement, stream: BodyStream): boolean {
  const started = performance.now();
  const pending = stream.pending;
  // Measured now, before this step changes anything, the layout the last frame made is still valid
  // (not when the text turns plain here, which replaces the wrappers).
  if (stream.toSeal && stream.markdown.length + pending.length <= MAX_MARKDOWN_CHARS) seal(...stream.toSeal);
  stream.toSeal = undefined;
  // Past the markdown bound the text is plain, which costs what is on screen: no steps needed.
  const partial = stream.markdown.length + pending.length <= MAX_MARKDOWN_CHARS && pending.length > stepChars;
  const step = partial ? pending.slice(0, stepChars) : pending;
  stream.pending = partial ? pending.slice(stepChars) : '';
  const update = stream.markdown.append(step);
  if (update) apply(body, stream, update);
  const spent = performance.now() - started;
  logWork(() => `md:${update ? `${update.kind}${update.reset ? '!' : ''}` : '-'}+${step.length}/${stepChars}:${spent.toFixed(1)}ms`);
  // Only a full step says what a step costs; a small update says nothing about a big one.
  if (spent > STEP_BUDGET_MS) stepChars = Math.max(MIN_STEP_CHARS, stepChars >> 1);
  else if (partial && spent < STEP_BUDGET_MS / 2) stepChars = Math.min(MAX_STEP_CHARS, stepChars << 1);
  // How much of the text is rendered: what the UI tests wait for (no style depends on it).
  body.dataset.chars = String(stream.markdown.length);
  return !partial;
}

function apply(body: HTMLElement, stream: BodyStream, update: MarkdownUpdate): void {
  switch (update.kind) {
    case 'plain': {
      let pre = update.reset ? null : body.querySelector<HTMLElement>(':scope > pre.plain');
      if (!pre) {
        pre = el('pre', 'plain');
        body.replaceChildren(pre);
        stream.piece = undefined;
      }
      appendPlain(pre, stream, update.text);
      stream.finishedNodes = 0;
      stream.toSeal = undefined;
      return;
    }
    case 'markdown': {
      if (update.reset) body.replaceChildren();
      else while (body.childNodes.length > stream.finishedNodes) body.lastChild?.remove();
      let added: HTMLElement | undefined;
      if (update.finished) {
        // Each batch of finished blocks in a plain wrapper (margins collapse through it, so it looks
        // the same): the body keeps a few children instead of thousands, which Blink lays out
        // several times faster as the message grows.
        added = el('div', 'md-part');
        added.append(fragment(update.finished));
        body.append(added);
      }
      stream.finishedNodes = body.childNodes.length;
      if (update.tail) body.append(fragment(update.tail));
      const before = added?.previousElementSibling;
      if (added && before instanceof HTMLElement && before.classList.contains('md-part')) stream.toSeal = [before, added];
      return;
    }
  }
}

/**
 * A finished wrapper that another one follows skips layout and paint while off screen
 * (`content-visibility: auto`, chat.css `.md-sealed`): a frame then costs the blocks near the
 * viewport, not every block of a long answer. Containment keeps the margins of its blocks inside
 * it, where they no longer collapse with those of the next wrapper's first block (the gap would be
 * their sum, not the larger). So its own bottom margin takes back the smaller of the two, measured
 * once before it may skip layout: the gap stays the larger, as before. The measured height is what
 * it holds while skipped (until shown again). It is measured at the step after the one that added
 * `next` (renderStep), when the frame in between has laid them out: measuring right after adding
 * forced a layout of the new blocks inside the script, on top of the frame's own.
 */
function seal(part: HTMLElement, next: HTMLElement): void {
  const last = part.lastElementChild;
  const first = next.firstElementChild;
  // Not shown (a closed thought, a body not in the page yet): nothing to measure, left as it is.
  if (!last || !first || part.getClientRects().length === 0) return;
  part.classList.add('md-flow');
  const box = part.getBoundingClientRect();
  const lastBottom = last.getBoundingClientRect().bottom;
  const inside = box.bottom - lastBottom;
  const gap = first.getBoundingClientRect().top - lastBottom;
  const overlap = Math.min(inside, gap - inside);
  if (overlap > 0) part.style.marginBottom = `${-overlap}px`;
  part.style.containIntrinsicSize = `auto ${box.height}px`;
  part.classList.add('md-sealed');
}

function appendPlain(pre: HTMLElement, stream: BodyStream, text: string): void {
  let rest = text;
  while (rest) {
    if (!stream.piece) {
      stream.piece = el('div', 'plain-piece');
      stream.pieceLength = 0;
      pre.append(stream.piece);
    }
    let take = rest.length;
    let full = false;
    const room = PLAIN_PIECE_CHARS - stream.pieceLength;
    if (take > room) {
      const lineEnd = rest.indexOf('\n', Math.max(0, room - 1));
      if (lineEnd >= 0) {
        take = lineEnd + 1;
        full = true;
      } else if (stream.pieceLength + take > PLAIN_PIECE_CHARS * 4) {
        // A line this long (no line break in 16,384 characters) is cut, or one piece would grow without bound.
        take = PLAIN_PIECE_CHARS * 4 - stream.pieceLength;
        full = true;
      }
    }
    stream.piece.append(rest.slice(0, take));
    stream.pieceLength += take;
    rest = rest.slice(take);
    if (full) stream.piece = undefined;
  }
}

/** Nodes for HTML that the markdown renderer produced (raw HTML in the text is escaped there). */
function fragment(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}

/**
 * Edit & resend's text while a user message is being edited, by turn: kept across the row's
 * re-renders (a patch, scrolling out of view) until sent and shown in a new session, or cancelled.
 */
const drafts = new Map<number, string>();
/** The message a row in Edit & resend shows now: Cancel puts back this one, not the one first edited. */
const editedMessages = new WeakMap<HTMLElement, Extract<ChatItem, { kind: 'message' }>>();

/** Another session (or the same one anew) is shown: its turns are not the drafts' turns. */
export function clearDrafts(): void {
  drafts.clear();
}

/**
 * Under a prompt: Edit & resend, and when its turn (or a later one) changed files its summary
 * and the way back to before it.
 */
function checkpoint(row: HTMLElement, item: Extract<ChatItem, { kind: 'message' }>, post: Post, v: number): HTMLElement[] {
  const turn = item.turn;
  if (turn === undefined) return [];
  const bar = el('div', 'checkpoint');
  if (item.changes) {
    const review = el('button', 'link-button checkpoint-changes', item.changes);
    review.title = 'Review the changes of this prompt';
    review.addEventListener('click', () => post({ v, type: 'reviewTurn', turn }));
    bar.append(review);
  }
  if (item.changes !== undefined) {
    const restore = el('button', 'link-button checkpoint-restore', 'Restore to before this prompt');
    restore.title = 'Undo every change the agent made since this prompt (asks first)';
    restore.addEventListener('click', () => post({ v, type: 'restoreCheckpoint', turn }));
    bar.append(restore);
  }
  const edit = el('button', 'link-button resend-edit', 'Edit & resend');
  edit.title = 'Edit this message and go on from here: the files go back to before it (asks first), the old conversation stays in Session History';
  edit.addEventListener('click', () => {
    drafts.set(turn, item.text);
    renderMessage(row, item, post, v);
    row.querySelector<HTMLTextAreaElement>('textarea.resend-text')?.focus();
  });
  bar.append(edit);
  return [bar];
}

/** The edit box of Edit & resend: Resend (Ctrl/Cmd+Enter) asks the host; Cancel (Escape) puts the message back. */
function resendEditor(row: HTMLElement, turn: number, draft: string, post: Post, v: number): HTMLElement {
  const box = el('div', 'resend');
  box.dataset.turn = String(turn);
  const text = el('textarea', 'resend-text');
  text.value = draft;
  text.rows = Math.min(12, Math.max(2, draft.split('\n').length));
  text.addEventListener('input', () => drafts.set(turn, text.value));
  const send = el('button', 'resend-send send', 'Resend');
  send.title = 'Restore the files to before this message (asks first) and send the edited text in a new branch';
  const cancel = el('button', 'resend-cancel', 'Cancel');
  const resend = () => {
    if (!text.value.trim()) return;
    post({ v, type: 'resend', turn, text: text.value });
  };
  const close = () => {
    drafts.delete(turn);
    const item = editedMessages.get(row);
    if (item) renderMessage(row, item, post, v);
  };
  send.addEventListener('click', resend);
  cancel.addEventListener('click', close);
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      resend();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  const actions = el('div', 'resend-actions');
  actions.append(send, cancel);
  box.append(text, actions);
  return box;
}

function renderTool(row: HTMLElement, item: ChatToolItem, post: Post, v: number): void {
  row.dataset.toolCallId = item.toolCallId;
  row.dataset.status = item.status;
  const open = el('button', 'tool-open');
  open.title = item.opens === 'diff' ? 'Open the diff' : item.opens === 'terminal' ? 'Show the terminal' : 'Show in Tool Calls';
  open.append(el('span', 'glyph', GLYPHS[item.icon] ?? '⚙'), el('span', 'tool-title', item.title));
  open.addEventListener('click', () => post({ v, type: 'openToolCall', toolCallId: item.toolCallId, target: item.opens === undefined ? 'tree' : 'editor' }));
  const status = el('span', `status status-${item.status}`, toolStatusLabel(item.status));
  const tree = el('button', 'icon-button tool-tree', '⋯');
  tree.title = 'Show in the Tool Calls tree';
  tree.addEventListener('click', () => post({ v, type: 'openToolCall', toolCallId: item.toolCallId, target: 'tree' }));
  row.replaceChildren(open, status, tree, ...imageStrip(item.images));
}

/** Images as data URIs (the page's CSP allows no other image source); click opens full size. */
function imageStrip(images: readonly ChatImage[] | undefined): HTMLElement[] {
  if (!images?.length) return [];
  const strip = el('div', 'images');
  for (const image of images) {
    const img = el('img', 'chat-image');
    img.src = `data:${image.mimeType};base64,${image.data}`;
    img.alt = 'image';
    img.addEventListener('click', () => img.classList.toggle('expanded'));
    strip.append(img);
  }
  return [strip];
}

/**
 * The agent's forms (elicitation/create), answered here: one input per field (text, number,
 * checkbox, select), the schema's defaults filled in, errors from the host's validation shown per
 * field. What was typed survives a re-render while the same form stays open.
 */
export function renderElicitations(host: HTMLElement, status: ChatStatus, post: Post, v: number): void {
  const typed = new Map<string, string | boolean>();
  for (const input of host.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-field]')) {
    typed.set(`${input.dataset.form}:${input.dataset.field}`, input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value);
  }
  const focused = document.activeElement instanceof HTMLElement && host.contains(document.activeElement) ? `${document.activeElement.dataset.form}:${document.activeElement.dataset.field}` : undefined;
  host.replaceChildren(...status.elicitations.map((form) => formCard(form, typed, post, v)));
  if (focused) host.querySelector<HTMLElement>(`[data-form="${focused.split(':')[0]}"][data-field="${CSS.escape(focused.split(':').slice(1).join(':'))}"]`)?.focus();
}

/**
 * A URL form: the message (a device code stays readable here while it is typed elsewhere), the
 * address, and Open / Decline; once opened it waits, with Open again and Dismiss, until the agent
 * says it is done (`elicitation/complete` removes it).
 */
function urlCard(form: ChatElicitation, url: NonNullable<ChatElicitation['url']>, post: Post, v: number): HTMLElement {
  const card = el('form', 'elicitation elicitation-url');
  card.dataset.elicitationId = String(form.id);
  card.dataset.state = url.waiting ? 'waiting' : 'asking';
  card.append(el('div', 'elicitation-title', `The agent asks you to open ${url.host}: ${form.message}`));
  card.append(el('div', 'field-description elicitation-href', url.href));
  if (url.waiting) card.append(el('div', 'field-description elicitation-waiting', 'Waiting for the agent to finish…'));
  const buttons = el('div', 'permission-options');
  const action = (label: string, name: ChatElicitationAction, primary: boolean) => {
    const button = el('button', primary ? 'perm perm-allow_once' : 'perm', label);
    button.type = 'button';
    button.dataset.action = name;
    button.addEventListener('click', () => post({ v, type: 'answerElicitation', id: form.id, action: name, answers: {} }));
    return button;
  };
  if (url.waiting) buttons.append(action('Open Again', 'accept', false), action('Dismiss', 'cancel', false));
  else buttons.append(action('Open in Browser', 'accept', true), action('Decline', 'decline', false), action('Cancel', 'cancel', false));
  card.append(buttons);
  return card;
}

function formCard(form: ChatElicitation, typed: Map<string, string | boolean>, post: Post, v: number): HTMLElement {
  if (form.url) return urlCard(form, form.url, post, v);
  const card = el('form', 'elicitation');
  card.dataset.elicitationId = String(form.id);
  card.noValidate = true; // the host validates, with the schema's own rules
  card.append(el('div', 'elicitation-title', `The agent asks: ${form.message}`));
  const inputs: { field: ChatFormField; input: HTMLInputElement | HTMLSelectElement }[] = [];
  for (const field of form.fields) {
    const id = `f${form.id}-${field.key}`;
    const label = el('label', 'field-label', `${field.title}${field.required ? ' *' : ''}`);
    label.htmlFor = id;
    const input = fieldInput(field, typed.get(`${form.id}:${field.key}`));
    input.id = id;
    input.dataset.form = String(form.id);
    input.dataset.field = field.key;
    const error = form.errors[field.key];
    const row = el('div', `field field-${field.kind}`);
    if (field.kind === 'boolean') row.append(input, label);
    else row.append(label, input);
    if (field.description) row.append(el('div', 'field-description', field.description));
    if (error) {
      input.setAttribute('aria-invalid', 'true');
      row.append(el('div', 'field-error', error));
    }
    inputs.push({ field, input });
    card.append(row);
  }
  const answers = () => {
    const out: Record<string, string | boolean> = {};
    for (const { input, field } of inputs) out[field.key] = input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value;
    return out;
  };
  const buttons = el('div', 'permission-options');
  const submit = el('button', 'perm perm-allow_once', 'Submit');
  submit.type = 'submit';
  submit.dataset.action = 'accept';
  const decline = el('button', 'perm', 'Decline');
  decline.type = 'button';
  decline.dataset.action = 'decline';
  decline.addEventListener('click', () => post({ v, type: 'answerElicitation', id: form.id, action: 'decline', answers: {} }));
  const cancel = el('button', 'perm', 'Cancel');
  cancel.type = 'button';
  cancel.dataset.action = 'cancel';
  cancel.addEventListener('click', () => post({ v, type: 'answerElicitation', id: form.id, action: 'cancel', answers: {} }));
  buttons.append(submit, decline, cancel);
  card.append(buttons);
  card.addEventListener('submit', (e) => {
    e.preventDefault();
    post({ v, type: 'answerElicitation', id: form.id, action: 'accept', answers: answers() });
  });
  card.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') post({ v, type: 'answerElicitation', id: form.id, action: 'cancel', answers: {} });
  });
  return card;
}

function fieldInput(field: ChatFormField, typed: string | boolean | undefined): HTMLInputElement | HTMLSelectElement {
  switch (field.kind) {
    case 'boolean': {
      const box = el('input');
      box.type = 'checkbox';
      box.checked = typeof typed === 'boolean' ? typed : field.default === true;
      return box;
    }
    case 'enum': {
      const select = el('select', 'field-input');
      if (!field.required || field.default === null) select.append(Object.assign(el('option', undefined, '—'), { value: '' }));
      for (const o of field.options) select.append(Object.assign(el('option', undefined, o.title), { value: o.value }));
      select.value = typeof typed === 'string' ? typed : (field.default ?? '');
      return select;
    }
    case 'number':
    case 'integer': {
      const input = el('input', 'field-input');
      input.type = 'text';
      input.inputMode = field.kind === 'integer' ? 'numeric' : 'decimal';
      input.value = typeof typed === 'string' ? typed : field.default === null ? '' : String(field.default);
      return input;
    }
    case 'string': {
      const input = el('input', 'field-input');
      input.type = field.format === 'email' ? 'email' : 'text';
      input.value = typeof typed === 'string' ? typed : (field.default ?? '');
      if (field.maxLength !== null) input.maxLength = field.maxLength;
      return input;
    }
  }
}

/** The agent's questions, answered right here (the first answer anywhere wins). */
export function renderPermissions(host: HTMLElement, status: ChatStatus, post: Post, v: number): void {
  host.replaceChildren(
    ...status.permissions.map((q) => {
      const card = el('div', 'permission');
      card.dataset.questionId = String(q.questionId);
      card.append(el('div', 'permission-title', `The agent asks: ${q.title}`));
      const buttons = el('div', 'permission-options');
      for (const option of q.options) {
        const button = el('button', `perm perm-${option.kind}`, option.name);
        button.dataset.kind = option.kind;
        button.addEventListener('click', () => post({ v, type: 'answerPermission', questionId: q.questionId, optionKind: option.kind, optionId: option.id }));
        buttons.append(button);
      }
      if (q.inspect) {
        const inspect = el('button', 'perm perm-inspect', q.inspect);
        inspect.addEventListener('click', () => post({ v, type: 'inspectPermission', questionId: q.questionId }));
        buttons.append(inspect);
      }
      if (q.hunks) {
        const review = el('button', 'perm perm-review-hunks', `Review hunks (${q.hunks})`);
        review.title = 'Open the edit with Keep / Reject over each hunk, then Allow selected';
        review.addEventListener('click', () => post({ v, type: 'reviewHunks', questionId: q.questionId }));
        buttons.append(review);
      }
      if (q.options.some((o) => o.kind === 'reject_once')) {
        const reason = el('button', 'perm perm-reject-reason', 'Reject…');
        reason.title = 'Reject, with a one-line reason sent to the agent';
        reason.addEventListener('click', () => post({ v, type: 'rejectWithReason', questionId: q.questionId }));
        buttons.append(reason);
      }
      card.append(buttons);
      return card;
    }),
  );
}

export function renderPlan(host: HTMLElement, status: ChatStatus): void {
  if (status.plan.length === 0) {
    host.replaceChildren();
    return;
  }
  const done = status.plan.filter((e) => e.status === 'completed').length;
  const details = el('details', 'plan');
  details.open = host.querySelector('details')?.open ?? true;
  details.append(el('summary', undefined, `Plan (${done}/${status.plan.length})`));
  const list = el('ul', 'checklist');
  for (const entry of status.plan) {
    const li = el('li', `plan-${entry.status}`);
    li.append(el('span', 'check', entry.status === 'completed' ? '☑' : entry.status === 'in_progress' ? '◐' : '☐'), el('span', undefined, entry.content));
    list.append(li);
  }
  details.append(list);
  host.replaceChildren(details);
}

/** A select that posts when changed; rebuilt only when its choices change (keeps focus). */
export function syncSelect(select: HTMLSelectElement, choices: readonly { id: string; name: string }[], current: string | null): void {
  const key = JSON.stringify(choices);
  if (select.dataset.choices !== key) {
    select.replaceChildren(...choices.map((c) => Object.assign(el('option', undefined, c.name), { value: c.id })));
    select.dataset.choices = key;
  }
  if (current !== null) select.value = current;
  select.hidden = choices.length === 0;
}
