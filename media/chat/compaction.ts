/**
 * A context compaction as a divider in the conversation: what happened ("Conversation
 * compacted", in progress, failed, cancelled, or never finished), the tokens before and after
 * when the agent said, and the summary folded underneath.
 */
import type { ChatCompactionItem } from '../../src/protocol/chat';
import { markdownBody } from './plan';
import { el } from './render';

function label(item: ChatCompactionItem): string {
  if (item.unfinished) return 'Compaction did not finish (its turn ended while it ran)';
  switch (item.status) {
    case 'in_progress':
      return 'Compacting the conversation…';
    case 'completed':
      return 'Conversation compacted';
    case 'failed':
      return item.error ? `Compaction failed: ${item.error}` : 'Compaction failed';
    case 'cancelled':
      return 'Compaction cancelled';
    default:
      return `Compaction: ${item.status}`;
  }
}

export function renderCompaction(row: HTMLElement, item: ChatCompactionItem): void {
  const wasOpen = row.querySelector<HTMLDetailsElement>('details.compaction-summary')?.open ?? false;
  const divider = el('div', 'compaction');
  divider.dataset.status = item.unfinished ? 'unfinished' : item.status;
  divider.setAttribute('role', 'separator');
  const line = el('div', 'compaction-line');
  line.append(el('span', 'compaction-label', label(item)));
  if (item.tokens) line.append(el('span', 'compaction-tokens', item.tokens));
  divider.append(line);
  if (item.summary) {
    const details = el('details', 'compaction-summary');
    details.open = wasOpen;
    details.append(el('summary', undefined, 'Summary'), markdownBody(item.summary));
    if (item.summaryCut) details.append(el('div', 'plan-card-cut', 'The summary is longer: this is its start.'));
    divider.append(details);
  }
  row.replaceChildren(divider);
}
