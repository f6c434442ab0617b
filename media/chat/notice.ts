/** A notice from the agent in the conversation: its severity as an icon, its title, its description. */
import type { ChatNoticeItem } from '../../src/protocol/chat';
import { el } from './render';

const ICONS: Readonly<Record<string, string>> = { error: '✖', warning: '⚠', info: 'ℹ' };

export function renderNotice(row: HTMLElement, item: ChatNoticeItem): void {
  // A severity newer than this client shows as information.
  const known = item.severity in ICONS ? item.severity : 'info';
  const notice = el('div', `notice notice-${known}`);
  notice.dataset.severity = item.severity;
  notice.setAttribute('role', known === 'error' ? 'alert' : 'status');
  const icon = el('span', 'notice-icon', ICONS[known]);
  icon.setAttribute('aria-label', known);
  const text = el('div', 'notice-text');
  const title = el('div', 'notice-title', item.title);
  if (item.count) title.append(el('span', 'notice-count', ` ×${item.count}`));
  text.append(title);
  if (item.description) text.append(el('div', 'notice-description', item.description));
  notice.append(icon, text);
  row.replaceChildren(notice);
}
