/**
 * The session's prompt queue, above the prompt box: each waiting prompt with Edit, up/down,
 * Send now and remove; when the queue waits (after a cancel, a refusal, an error, a reload) why,
 * with Resume and Clear. Rebuilt only when the queue changes, and never while an item is edited.
 */
import type { ChatQueue, WebviewToHost } from '../../src/protocol/chat';
import { el } from './render';

type Post = (message: WebviewToHost) => void;

export class QueueView {
  readonly element = el('div', 'queue');
  private key = '';
  /** The id of the item being edited: a status arriving meanwhile does not throw the edit away. */
  private editing: string | undefined;
  private pending: ChatQueue | undefined;

  constructor(
    private readonly post: Post,
    private readonly v: number,
  ) {
    this.element.hidden = true;
    this.element.setAttribute('aria-label', 'Queued prompts');
  }

  update(queue: ChatQueue): void {
    if (this.editing) {
      this.pending = queue;
      return;
    }
    const key = JSON.stringify(queue);
    if (key === this.key) return;
    this.key = key;
    this.render(queue);
  }

  private render(queue: ChatQueue): void {
    const { post, v } = this;
    this.element.hidden = queue.items.length === 0;
    const head = el('div', 'queue-head');
    head.append(el('span', 'queue-title', `Queued (${queue.items.length})`));
    if (queue.waiting) {
      const waiting = el('span', 'queue-waiting', queue.waiting);
      waiting.setAttribute('role', 'status');
      const resume = el('button', 'queue-resume', 'Resume');
      resume.title = 'Send the next queued prompt when no turn runs';
      resume.addEventListener('click', () => post({ v, type: 'queueResume' }));
      const clear = el('button', 'queue-clear', 'Clear');
      clear.title = 'Remove every queued prompt';
      clear.addEventListener('click', () => post({ v, type: 'queueClear' }));
      head.append(waiting, resume, clear);
    }
    const items = queue.items.map((item, index) => {
      const row = el('div', 'queue-item');
      row.dataset.id = item.id;
      const text = el('span', 'queue-text', item.text);
      text.title = item.text;
      row.append(text);
      if (item.attachments.length) row.append(el('span', 'queue-attachments', `+ ${item.attachments.join(', ')}`));
      if (item.note) row.append(el('span', 'queue-note', item.note));
      const button = (cls: string, label: string, title: string, click: () => void, disabled = false) => {
        const b = el('button', `icon-button ${cls}`, label);
        b.title = title;
        b.setAttribute('aria-label', title);
        b.disabled = disabled;
        b.addEventListener('click', click);
        return b;
      };
      row.append(
        button('queue-edit', '✎', 'Edit', () => this.edit(row, item.id, item.text)),
        button('queue-up', '↑', 'Move up', () => post({ v, type: 'queueMove', id: item.id, to: index - 1 }), index === 0),
        button('queue-down', '↓', 'Move down', () => post({ v, type: 'queueMove', id: item.id, to: index + 1 }), index === queue.items.length - 1),
        button('queue-send-now', 'Send now', queue.steering ? 'Send it into the running turn (steer)' : 'Cancel the running turn and send this', () => post({ v, type: 'queueSendNow', id: item.id })),
        button('queue-remove', '×', 'Remove from the queue', () => post({ v, type: 'queueRemove', id: item.id })),
      );
      return row;
    });
    this.element.replaceChildren(head, ...items);
  }

  /** The item's text becomes a box: Enter saves, Escape (or leaving it) keeps the old text. */
  private edit(row: HTMLElement, id: string, text: string): void {
    this.editing = id;
    const box = el('textarea', 'queue-edit-box');
    box.value = text;
    box.rows = Math.min(6, text.split('\n').length + 1);
    const done = (save: boolean) => {
      if (this.editing !== id) return;
      this.editing = undefined;
      if (save && box.value.trim() && box.value !== text) this.post({ v: this.v, type: 'queueEdit', id, text: box.value });
      const next = this.pending;
      this.pending = undefined;
      this.key = '';
      if (next) this.update(next);
      else row.querySelector('.queue-edit-box')?.replaceWith(el('span', 'queue-text', save ? box.value : text));
    };
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        done(true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        done(false);
      }
    });
    box.addEventListener('blur', () => done(false));
    row.querySelector('.queue-text')?.replaceWith(box);
    box.focus();
  }
}
