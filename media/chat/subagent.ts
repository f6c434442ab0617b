/**
 * A subagent in its parent's conversation: a collapsible block whose header names it with its live
 * state (and Stop while it runs), and whose body holds the prompt it was given, its text, its tool
 * rows, its report and its own subagents.
 */
import { toolStatusLabel, type ChatSubagentItem } from '../../src/protocol/chat';
import { markdownBody } from './plan';
import { el, GLYPHS, type Post } from './render';

/** Blocks the user opened or closed, by the child's session id (a re-render keeps the choice). */
const opened = new Map<string, boolean>();

export function renderSubagent(row: HTMLElement, item: ChatSubagentItem, post: Post, v: number): void {
  // The blocks as shown now are the truth: a click opens a block at once, but its `toggle` event
  // comes a task later, after a re-render that would otherwise fold it again.
  for (const shown of row.querySelectorAll<HTMLDetailsElement>('details.subagent')) {
    if (shown.dataset.sessionId) opened.set(shown.dataset.sessionId, shown.open);
  }
  row.replaceChildren(subagentBlock(item, post, v));
}

function subagentBlock(item: ChatSubagentItem, post: Post, v: number): HTMLElement {
  const details = el('details', 'subagent');
  details.dataset.sessionId = item.sessionId;
  details.dataset.activity = item.activity;
  details.open = opened.get(item.sessionId) ?? false;
  details.addEventListener('toggle', () => opened.set(item.sessionId, details.open));
  const summary = el('summary', 'subagent-head');
  summary.append(el('span', 'glyph', '◈'), el('span', 'subagent-title', item.title));
  if (item.description) summary.append(el('span', 'subagent-kind', item.description));
  summary.append(el('span', `subagent-state state-${item.activity}`, item.error ? 'not opened' : item.state));
  if (item.canStop) {
    const stop = el('button', 'subagent-stop', 'Stop');
    stop.title = 'Stop this subagent (its parent goes on)';
    stop.addEventListener('click', (event) => {
      event.preventDefault();
      post({ v, type: 'stopSubagent', sessionId: item.sessionId });
    });
    summary.append(stop);
  }
  details.append(summary);
  if (item.error) details.append(el('div', 'subagent-error', item.error));
  if (item.prompt) {
    const prompt = el('details', 'subagent-prompt');
    prompt.append(el('summary', undefined, 'Prompt'), markdownBody(item.prompt));
    details.append(prompt);
  }
  if (item.text) details.append(withClass(markdownBody(item.text), 'subagent-text'));
  if (item.tools.length) {
    const list = el('div', 'subagent-tools');
    if (item.moreTools) list.append(el('div', 'subagent-more', `${item.moreTools} earlier tool calls (in the Tool Calls tree)`));
    for (const tool of item.tools) {
      const line = el('div', 'subagent-tool');
      line.dataset.status = tool.status;
      line.append(el('span', 'glyph', GLYPHS[tool.icon] ?? '⚙'), el('span', 'tool-title', tool.title), el('span', `status status-${tool.status}`, toolStatusLabel(tool.status)));
      list.append(line);
    }
    details.append(list);
  }
  for (const child of item.children ?? []) details.append(subagentBlock(child, post, v));
  if (item.report) {
    const report = el('div', 'subagent-report');
    report.append(el('div', 'subagent-report-label', item.toolsUsed ? `Report · used ${item.toolsUsed}` : 'Report'), markdownBody(item.report));
    details.append(report);
  }
  return details;
}

function withClass(node: HTMLElement, className: string): HTMLElement {
  node.classList.add(className);
  return node;
}
