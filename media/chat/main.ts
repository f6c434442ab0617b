/** The Chat webview's entry: builds the page, talks to the host through the chat protocol. */
import { CHAT_PROTOCOL_VERSION, parseHostMessage, type ChatStatus, type HostToWebview, type WebviewToHost } from '../../src/protocol/chat';
import { ChatList } from './list';
import { PromptBox } from './prompt';
import { el, renderFooter, renderItem, renderPermissions, renderPlan, syncSelect } from './render';

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
modeSelect.title = 'Session mode';
const configSelects = el('span', 'config-selects');
const button = (label: string, title: string, message: WebviewToHost) => {
  const b = el('button', 'icon-button', label);
  b.title = title;
  b.addEventListener('click', () => post(message));
  return b;
};
// New session, history and the agent picker are the view's own title-bar actions (package.json).
toolbar.append(agentLabel, el('span', 'spacer'), modeSelect, configSelects);
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
scroller.append(empty, listHost, permissions);
const plan = el('div', 'plan-host');
const footer = el('div', 'footer');
const composer = el('div', 'composer');
const chips = el('div', 'chips');
const completions = el('div', 'completions');
completions.hidden = true;
completions.setAttribute('role', 'listbox');
const textarea = el('textarea', 'prompt');
textarea.rows = 2;
textarea.placeholder = 'Ask the agent — Enter to send, Shift+Enter for a new line, / for commands';
textarea.value = vscode.getState()?.draft ?? '';
textarea.addEventListener('input', () => vscode.setState({ draft: textarea.value }));
const actions = el('div', 'composer-actions');
const attachFile = button('+ File', 'Attach the active file', { v, type: 'attach', what: 'file' });
const attachSelection = button('+ Selection', 'Attach the selection of the active editor', { v, type: 'attach', what: 'selection' });
const sendButton = el('button', 'send', 'Send');
const cancelButton = el('button', 'cancel', 'Cancel');
cancelButton.hidden = true;
cancelButton.addEventListener('click', () => post({ v, type: 'cancel' }));
const activity = el('span', 'activity');
actions.append(attachFile, attachSelection, el('span', 'spacer'), activity, cancelButton, sendButton);
composer.append(chips, completions, textarea, actions);
app.append(toolbar, scroller, plan, footer, composer);

modeSelect.addEventListener('change', () => post({ v, type: 'setMode', modeId: modeSelect.value }));

const list = new ChatList(listHost, scroller, { render: (row, item) => renderItem(row, item, post, v) });
const prompt = new PromptBox(textarea, completions, (text) => {
  post({ v, type: 'prompt', text });
  vscode.setState({ draft: '' });
  list.scrollToEnd();
  return true;
});
sendButton.addEventListener('click', () => prompt.submit());

// ── Messages from the host ──────────────────────────────────────────────────
let status: ChatStatus | undefined;

function applyStatus(next: ChatStatus): void {
  status = next;
  agentLabel.textContent = next.agentName ? `${next.agentName}${next.title ? ` · ${next.title}` : ''}` : 'No session';
  syncSelect(modeSelect, next.modes, next.currentModeId);
  configSelects.replaceChildren(
    ...next.configOptions.map((option) => {
      const select = el('select', 'config-select');
      select.title = option.name;
      syncSelect(select, option.options, option.currentValue);
      select.addEventListener('change', () => post({ v, type: 'setConfigOption', configId: option.id, value: select.value }));
      return select;
    }),
  );
  prompt.setCommands(next.commands);
  const running = next.activity === 'working' || next.activity === 'waiting';
  cancelButton.hidden = !running;
  activity.textContent = next.activity === 'working' ? 'Working…' : next.activity === 'waiting' ? 'Waiting for your answer' : '';
  document.body.dataset.activity = next.activity;
  const follow = list.atEnd();
  renderPermissions(permissions, next, post, v);
  renderPlan(plan, next);
  renderFooter(footer, next);
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

function receive(message: HostToWebview): void {
  switch (message.type) {
    case 'reset': {
      const started = performance.now();
      list.reset(message.items);
      applyStatus(message.status);
      document.body.dataset.resetMs = (performance.now() - started).toFixed(1);
      break;
    }
    case 'patch':
      list.patch(message.length, message.changed);
      break;
    case 'status':
      applyStatus(message.status);
      break;
    case 'focusPrompt':
      textarea.focus();
      break;
  }
  empty.hidden = list.length > 0 || (status?.permissions.length ?? 0) > 0;
  document.body.dataset.items = String(list.length);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (parsed.ok) receive(parsed.message);
  else console.warn(`chat: message ignored (${parsed.error})`);
});

post({ v, type: 'ready' });
