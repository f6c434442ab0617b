/**
 * The context window's meter under the prompt: how full it is as a bar (amber from 80 %, red from
 * 95 %), the numbers and the cost in its tooltip, **Compact** when the agent offers `/compact`,
 * and **New session from summary**.
 */
import type { ChatStatus, WebviewToHost } from '../../src/protocol/chat';
import { el } from './render';

export class ContextMeter {
  readonly element = el('div', 'context-meter');
  private readonly bar = el('div', 'meter-bar');
  private readonly fill = el('div', 'meter-fill');
  private readonly label = el('span', 'meter-label');
  private readonly compact = el('button', 'link-button meter-compact', 'Compact');
  private readonly fresh = el('button', 'link-button meter-new-session', 'New session from summary');

  constructor(post: (message: WebviewToHost) => void, v: number) {
    this.bar.setAttribute('role', 'meter');
    this.bar.setAttribute('aria-label', 'Context window used');
    this.bar.setAttribute('aria-valuemin', '0');
    this.bar.setAttribute('aria-valuemax', '100');
    this.bar.append(this.fill);
    this.compact.title = "Free up context: the agent's /compact summarizes the conversation so far";
    this.compact.addEventListener('click', () => post({ v, type: 'compact' }));
    this.fresh.title = 'A new session with this agent, its first prompt carrying the summary of this one';
    this.fresh.addEventListener('click', () => post({ v, type: 'newSessionFromSummary' }));
    this.element.append(this.bar, this.label, el('span', 'spacer'), this.compact, this.fresh);
    this.element.hidden = true;
  }

  update(status: ChatStatus): void {
    // An older host's status has no meter.
    const context = status.context ?? null;
    // Nothing to show before the agent says how full its window is, unless it offers /compact.
    this.element.hidden = context === null || (context.used === null && !context.canCompact);
    if (!context) return;
    const busy = status.activity === 'working' || status.activity === 'waiting';
    this.element.dataset.level = context.level;
    this.element.title = context.detail;
    this.bar.hidden = context.fraction === null;
    const percent = Math.round((context.fraction ?? 0) * 100);
    this.fill.style.width = `${percent}%`;
    this.bar.setAttribute('aria-valuenow', String(percent));
    this.label.textContent = context.label;
    this.compact.hidden = !context.canCompact;
    this.compact.disabled = busy;
    this.fresh.disabled = busy;
  }
}
