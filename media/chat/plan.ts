/**
 * A plan card in the conversation (`plan_update`): a markdown plan rendered (its start when long,
 * with a note; **Open** shows it whole in VS Code's markdown preview), a file plan with **Open**
 * (its file), an items plan as a checklist. Replaced in place when the agent sends the plan again.
 */
import type { ChatPlanEntry, ChatPlanItem, WebviewToHost } from '../../src/protocol/chat';
import { renderMarkdown } from './markdown';
import { el } from './render';

/** Markdown as nodes (the renderer escapes raw HTML and keeps only safe links). */
export function markdownBody(text: string): HTMLElement {
  const body = el('div', 'markdown');
  const template = document.createElement('template');
  template.innerHTML = renderMarkdown(text);
  body.append(template.content);
  return body;
}

export function renderPlanCard(row: HTMLElement, item: ChatPlanItem, post: (message: WebviewToHost) => void, v: number): void {
  row.dataset.planId = item.planId;
  row.classList.toggle('row-removed', item.removed === true);
  if (item.removed) {
    row.replaceChildren();
    return;
  }
  const card = el('div', 'plan-card');
  card.dataset.planType = item.planType;
  const head = el('div', 'plan-card-head');
  head.append(el('span', 'plan-card-title', item.planType === 'items' ? `Plan (${done(item.entries)}/${item.entries?.length ?? 0})` : 'Plan'));
  if (item.file) head.append(el('span', 'plan-card-file', item.file));
  head.append(el('span', 'spacer'));
  if (item.openable) {
    const open = el('button', 'link-button plan-open', 'Open');
    open.title = item.planType === 'file' ? 'Open the plan file' : 'Show the whole plan in the markdown preview';
    open.addEventListener('click', () => post({ v, type: 'openPlan', planId: item.planId }));
    head.append(open);
  }
  card.append(head);
  switch (item.planType) {
    case 'markdown':
      card.append(markdownBody(item.text ?? ''));
      if (item.cut) {
        const note = el('div', 'plan-card-cut', `The card shows the first ${item.cut.shown.toLocaleString('en-US')} of ${item.cut.total.toLocaleString('en-US')} characters. `);
        const rest = el('button', 'link-button', 'Open the whole plan');
        rest.addEventListener('click', () => post({ v, type: 'openPlan', planId: item.planId }));
        note.append(rest);
        card.append(note);
      }
      break;
    case 'items':
      card.append(checklist(item.entries ?? []));
      break;
    case 'file':
      if (!item.openable) card.append(el('div', 'plan-card-cut', 'The plan is not a file here, so it cannot be opened.'));
      break;
  }
  row.replaceChildren(card);
}

function done(entries: readonly ChatPlanEntry[] | undefined): number {
  return entries?.filter((e) => e.status === 'completed').length ?? 0;
}

function checklist(entries: readonly ChatPlanEntry[]): HTMLElement {
  const list = el('ul', 'checklist');
  for (const entry of entries) {
    const li = el('li', `plan-${entry.status}`);
    li.append(el('span', 'check', entry.status === 'completed' ? '☑' : entry.status === 'in_progress' ? '◐' : '☐'), el('span', undefined, entry.content));
    list.append(li);
  }
  return list;
}
