/** The Chat webview's entry: builds the page, talks to the host through the chat protocol. */
import { CHAT_PROTOCOL_VERSION, MAX_IMAGE_BYTES, MAX_PROMPT_CHARS, applyChatPatch, parseHostMessage, unpackChanges, unpackItem, type ChatItem, type ChatSessionEntry, type ChatStatus, type HostToWebview, type WebviewToHost } from '../../src/protocol/chat';
import { ChatList } from './list';
import { PromptBox } from './prompt';
import { clearDrafts, el, growItem, renderElicitations, renderItem, renderPermissions, renderPlan, syncSelect } from './render';
import { ContextMeter } from './meter';
import { syncToggles } from './toggles';
import { QueueView } from './queue';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): { draft?: string } | undefined;
  setState(state: { draft?: string }): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const v = CHAT_PROTOCOL_VERSION;
const post = (message: WebviewToHost) => vscode.postMessage(message);

// ── Layout ──────────────────────────────────────────────────────────────────
const app = document.getElementById('app') ?? document.body;
const toolbar = el('div', 'toolbar');
const agentLabel = el('span', 'agent-label', 'No session');
const modeSelect = el('select', 'mode-select');
modeSelect.title = 'Session mode (session/set_mode)';
const modePicker = labelled('Mode', modeSelect);
const configSelects = el('span', 'config-selects');
const configToggles = el('span', 'config-toggles');

/** A picker with its name in front, so six drop-downs never show unlabelled. */
function labelled(name: string, select: HTMLSelectElement): HTMLLabelElement {
  const label = el('label', 'picker');
  label.append(el('span', 'picker-name', name), select);
  return label;
}
const button = (label: string, title: string, message: WebviewToHost) => {
  const b = el('button', 'icon-button', label);
  b.title = title;
  b.addEventListener('click', () => post(message));
  return b;
};
// New session, history and the agent picker are the view's own title-bar actions (package.json).
// With several sessions open the label gives way to the switcher (one option per session: agent,
// title, status), with a close button; another session's question shows as a button that goes there.
const switcher = el('select', 'session-switcher');
switcher.title = 'Open sessions: agent · title — status';
switcher.setAttribute('aria-label', 'Open sessions');
switcher.hidden = true;
switcher.addEventListener('change', () => post({ v, type: 'switchSession', sessionId: switcher.value }));
const newWithAgent = button('+', 'New session with agent… (the sessions open keep running)', { v, type: 'newSessionWithAgent' });
newWithAgent.classList.add('new-with-agent');
const closeSession = el('button', 'icon-button close-session', '×');
closeSession.title = 'Close this session';
closeSession.hidden = true;
closeSession.addEventListener('click', () => {
  if (status?.sessionId) post({ v, type: 'closeSession', sessionId: status.sessionId });
});
const elsewhere = el('button', 'elsewhere');
elsewhere.hidden = true;
elsewhere.addEventListener('click', () => {
  const target = elsewhere.dataset.sessionId;
  if (target) post({ v, type: 'switchSession', sessionId: target });
});
toolbar.append(agentLabel, switcher, el('span', 'spacer'), elsewhere, newWithAgent, closeSession);
const scroller = el('div', 'scroller');
const listHost = el('div', 'list');
listHost.setAttribute('role', 'log');
const empty = el('div', 'empty', 'Ask the agent something. With the bundled agent, try /demo.');
const startActions = el('div', 'start-actions');
startActions.append(
  button('New session', 'Start a new session', { v, type: 'newSession' }),
  button('History…', 'Open an earlier session', { v, type: 'history' }),
  button('Choose agent…', 'Pick the agent and, for the bundled one, scripted or LLM', { v, type: 'pickAgent' }),
);
empty.append(startActions);
const permissions = el('div', 'permissions');
const forms = el('div', 'elicitations');
scroller.append(empty, listHost, permissions, forms);
const plan = el('div', 'plan-host');
const composer = el('div', 'composer');
const queueView = new QueueView(post, v);
const chips = el('div', 'chips');
const completions = el('div', 'completions');
completions.hidden = true;
completions.setAttribute('role', 'listbox');
const textarea = el('textarea', 'prompt');
textarea.rows = 2;
const IDLE_PLACEHOLDER = 'Ask the agent — Enter to send, Shift+Enter for a new line, / for commands, @ for files';
textarea.placeholder = IDLE_PLACEHOLDER;
/** While a turn runs the placeholder says what Enter does now. */
function placeholderFor(next: ChatStatus): string {
  if (next.activity !== 'working' && next.activity !== 'waiting') return IDLE_PLACEHOLDER;
  return next.queue.steering ? 'Enter to steer the running turn, Alt+Enter to queue for after it' : 'Enter or Alt+Enter queues this for after the running turn';
}
textarea.value = vscode.getState()?.draft ?? '';
const saveDraft = () => vscode.setState({ draft: textarea.value });
textarea.addEventListener('input', saveDraft);
textarea.addEventListener('draft', saveDraft);
const note = el('div', 'composer-note');
note.hidden = true;
note.setAttribute('role', 'status');
const pickers = el('div', 'pickers');
pickers.append(modePicker, configSelects, configToggles);
const actions = el('div', 'composer-actions');
const attachFile = button('+ File', 'Attach the active file', { v, type: 'attach', what: 'file' });
const attachSelection = button('+ Selection', 'Attach the selection of the active editor', { v, type: 'attach', what: 'selection' });
const sendButton = el('button', 'send', 'Send');
const cancelButton = el('button', 'cancel', 'Cancel');
cancelButton.hidden = true;
cancelButton.addEventListener('click', () => post({ v, type: 'cancel' }));
const activity = el('span', 'activity');
actions.append(attachFile, attachSelection, el('span', 'spacer'), activity, cancelButton, sendButton);
composer.append(queueView.element, chips, completions, textarea, note, pickers, actions);
// While the window catches up with a storm: how many calls the session has, the newest shown.
const progress = el('div', 'progress');
progress.hidden = true;
progress.setAttribute('role', 'status');
app.append(toolbar, scroller, progress, plan, composer);
// Under the prompt: how full the context window is.
const meter = new ContextMeter(post, v);
composer.append(meter.element);

modeSelect.addEventListener('change', () => post({ v, type: 'setMode', modeId: modeSelect.value }));

const list = new ChatList(listHost, scroller, {
  render: (row, item) => renderItem(row, item, post, v),
  grow: (row, item, added) => growItem(row, item, added, post, v),
});
const prompt = new PromptBox(textarea, completions, {
  send: (text, how) => {
    if (text.length > MAX_PROMPT_CHARS) {
      // Not even sent to the host: it stays in the box, with why.
      showNote(`The prompt is ${text.length.toLocaleString()} characters, over the ${MAX_PROMPT_CHARS.toLocaleString()} a prompt can take: nothing was sent.`);
      return false;
    }
    showNote('');
    post({ v, type: 'prompt', text, how });
    vscode.setState({ draft: '' });
    list.scrollToEnd();
    return true;
  },
  cancelTurn: () => {
    if (status?.activity !== 'working' && status?.activity !== 'waiting') return false;
    post({ v, type: 'cancel' });
    return true;
  },
  queryMentions: (requestId, query) => post({ v, type: 'mentionQuery', requestId, query }),
  mention: (item) => post({ v, type: 'mention', path: item.path, isFolder: item.isFolder }),
  removeLastChip: () => {
    const last = status?.attachments.at(-1);
    if (!last) return false;
    post({ v, type: 'detach', id: last.id });
    return true;
  },
});

// ── Images: pasted or dropped into the prompt ───────────────────────────────
function showNote(text: string): void {
  note.textContent = text;
  note.hidden = !text;
}

function attachImages(files: readonly File[]): void {
  for (const file of files) {
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
      showNote(`${file.name || 'That file'} is not an image the agent can take (PNG, JPEG, GIF or WebP).`);
      continue;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      showNote(`${file.name || 'The image'} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB and was not attached.`);
      continue;
    }
    if (status?.sessionId && !status.acceptsImages) {
      showNote(`${status.agentName ?? 'This agent'} does not take images; the image was not attached.`);
      continue;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      const data = url.slice(url.indexOf(',') + 1);
      showNote('');
      post({ v, type: 'attachImage', name: file.name || `pasted ${file.type.slice(6)} image`, mimeType: file.type, data });
    };
    reader.readAsDataURL(file);
  }
}

textarea.addEventListener('paste', (e) => {
  const files = [...(e.clipboardData?.files ?? [])];
  if (files.length === 0) return;
  e.preventDefault();
  attachImages(files);
});
composer.addEventListener('dragover', (e) => {
  if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
});
composer.addEventListener('drop', (e) => {
  const files = [...(e.dataTransfer?.files ?? [])];
  if (files.length === 0) return;
  e.preventDefault();
  attachImages(files);
});
sendButton.addEventListener('click', () => prompt.submit());

// ── Messages from the host ──────────────────────────────────────────────────
let status: ChatStatus | undefined;

function applyStatus(next: ChatStatus): void {
  status = next;
  agentLabel.textContent = next.agentName ? `${next.agentName}${next.title ? ` · ${next.title}` : ''}` : 'No session';
  syncSwitcher(next);
  syncSelect(modeSelect, next.modes, next.currentModeId);
  modePicker.hidden = next.modes.length === 0;
  syncConfigPickers(next);
  syncToggles(configToggles, next.toggles, post, v);
  prompt.setCommands(next.commands);
  queueView.update(next.queue);
  textarea.placeholder = placeholderFor(next);
  const running = next.activity === 'working' || next.activity === 'waiting';
  cancelButton.hidden = !running;
  activity.textContent = next.activity === 'working' ? 'Working…' : next.activity === 'waiting' ? 'Waiting for your answer' : '';
  document.body.dataset.activity = next.activity;
  const follow = list.followsEnd;
  renderPermissions(permissions, next, post, v);
  renderElicitations(forms, next, post, v);
  renderPlan(plan, next);
  meter.update(next);
  chips.replaceChildren(
    ...next.attachments.map((a) => {
      const chip = el('span', 'chip', a.name);
      const remove = el('button', 'chip-remove', '×');
      remove.title = `Remove ${a.name}`;
      remove.addEventListener('click', () => post({ v, type: 'detach', id: a.id }));
      chip.append(remove);
      return chip;
    }),
  );
  if (follow) list.scrollToEnd();
}

const ACTIVITY_SUFFIX: Record<ChatSessionEntry['activity'], string> = { idle: '', working: ' — working', waiting: ' — needs your answer' };

/** The session switcher and the "another session asks" button: shown only with several sessions open. */
function syncSwitcher(next: ChatStatus): void {
  const several = next.sessions.length > 1;
  agentLabel.hidden = several;
  switcher.hidden = !several;
  closeSession.hidden = !several;
  const key = JSON.stringify(next.sessions.map((s) => [s.sessionId, s.agentName, s.title, s.activity]));
  if (switcher.dataset.key !== key) {
    switcher.dataset.key = key;
    switcher.replaceChildren(
      ...next.sessions.map((s) => {
        const option = el('option', '', `${s.agentName} · ${s.title}${ACTIVITY_SUFFIX[s.activity]}`);
        option.value = s.sessionId;
        option.dataset.activity = s.activity;
        return option;
      }),
    );
  }
  const shown = next.sessions.find((s) => s.shown);
  if (shown) switcher.value = shown.sessionId;
  switcher.dataset.activity = shown?.activity ?? 'idle';
  // The first other session that waits for an answer: one click shows it.
  const asking = next.sessions.find((s) => !s.shown && s.activity === 'waiting');
  elsewhere.hidden = !asking;
  if (asking) {
    elsewhere.dataset.sessionId = asking.sessionId;
    // "Asks" first: a narrow header cuts the title, not what happened.
    elsewhere.textContent = `Asks: ${asking.agentName} · ${asking.title}`;
    elsewhere.title = `${asking.agentName} · ${asking.title} needs your answer: show that session`;
  } else {
    delete elsewhere.dataset.sessionId;
  }
}

/** One labelled picker per select-type config option, mode and model first; kept (not rebuilt) while the options stay. */
function syncConfigPickers(next: ChatStatus): void {
  const rank = (category: string | null) => (category === 'mode' ? 0 : category === 'model' ? 1 : 2);
  const options = [...next.configOptions].sort((a, b) => rank(a.category) - rank(b.category));
  const existing = new Map([...configSelects.querySelectorAll<HTMLSelectElement>('select.config-select')].map((s) => [s.dataset.configId, s]));
  const key = JSON.stringify(options.map((o) => [o.id, o.name, o.description]));
  if (configSelects.dataset.key !== key) {
    configSelects.dataset.key = key;
    configSelects.replaceChildren(
      ...options.map((option) => {
        const select = existing.get(option.id) ?? el('select', 'config-select');
        select.dataset.configId = option.id;
        if (option.category) select.dataset.category = option.category;
        select.title = option.description ? `${option.name}: ${option.description}` : option.name;
        select.onchange = () => post({ v, type: 'setConfigOption', configId: option.id, value: select.value });
        return labelled(option.name, select);
      }),
    );
  }
  for (const option of options) {
    const select = configSelects.querySelector<HTMLSelectElement>(`select[data-config-id="${CSS.escape(option.id)}"]`);
    if (select) syncSelect(select, option.options, option.currentValue);
  }
}

/** A reset arriving in parts (`more`): its items so far and the newest status, shown once complete. */
let incoming: { items: ChatItem[]; status: ChatStatus } | undefined;

function resetList(items: readonly ChatItem[], next: ChatStatus): void {
  const started = performance.now();
  clearDrafts();
  list.reset(items);
  applyStatus(next);
  document.body.dataset.resetMs = (performance.now() - started).toFixed(1);
}

function receive(message: HostToWebview): void {
  switch (message.type) {
    case 'reset': {
      const items = message.items.map(unpackItem);
      if (message.more) {
        // The rest follows in patches: the list keeps what it shows until the whole session is here.
        incoming = { items, status: message.status };
        return;
      }
      incoming = undefined;
      progress.hidden = true;
      resetList(items, message.status);
      break;
    }
    case 'patch': {
      const changed = unpackChanges(message.changed);
      if (incoming) {
        applyChatPatch(incoming.items, message.length, changed);
        if (message.more) return;
        const { items, status: last } = incoming;
        incoming = undefined;
        resetList(items, last);
        break;
      }
      list.patch(message.length, changed);
      break;
    }
    case 'status':
      if (incoming) {
        incoming.status = message.status;
        return;
      }
      applyStatus(message.status);
      break;
    case 'progress':
      progress.textContent = message.text ?? '';
      progress.hidden = message.text === null;
      return;
    case 'focusPrompt':
      textarea.focus();
      break;
    case 'promptRefused':
      // Refused unsent: the text goes back where it was typed (unless something new is there).
      if (message.text !== undefined && !textarea.value.trim()) {
        textarea.value = message.text;
        textarea.dispatchEvent(new Event('input'));
        saveDraft();
      }
      showNote(message.reason);
      break;
    case 'mentionResults':
      prompt.showMentions(message.requestId, message.items);
      return;
  }
  empty.hidden = list.length > 0 || (status?.permissions.length ?? 0) > 0 || (status?.elicitations.length ?? 0) > 0;
  document.body.dataset.items = String(list.length);
}

/**
 * The newest patch number to acknowledge, once drawn: after the next frame (a task queued from
 * `requestAnimationFrame` runs after that frame's paint). One acknowledgement per frame, for the
 * newest patch: the host reads how late it comes as how far the window is behind.
 */
let ackSeq = 0;
let ackFrame = false;
function acknowledge(seq: number): void {
  ackSeq = Math.max(ackSeq, seq);
  if (ackFrame) return;
  ackFrame = true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      ackFrame = false;
      post({ v, type: 'ack', seq: ackSeq });
    }, 0),
  );
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) {
    console.warn(`chat: message ignored (${parsed.error})`);
    return;
  }
  receive(parsed.message);
  if (parsed.message.type === 'patch' && parsed.message.seq !== undefined) acknowledge(parsed.message.seq);
});

post({ v, type: 'ready' });
// The host moves the keyboard here only when the page does not have it (see ChatPanel.focus).
const reportFocus = () => post({ v, type: 'focusChanged', focused: document.hasFocus() });
window.addEventListener('focus', reportFocus);
window.addEventListener('blur', reportFocus);
reportFocus();
