/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; typing `/` at the start offers the
 * agent's slash commands (arrows choose, Tab or Enter takes one, Escape closes).
 */
import type { ChatStatus } from '../../src/protocol/chat';
import { el } from './render';

type Command = ChatStatus['commands'][number];

export class PromptBox {
  private commands: readonly Command[] = [];
  private matches: Command[] = [];
  private selected = 0;

  constructor(
    readonly textarea: HTMLTextAreaElement,
    private readonly menu: HTMLElement,
    private readonly send: (text: string) => boolean,
  ) {
    textarea.addEventListener('keydown', (e) => this.onKeyDown(e));
    textarea.addEventListener('input', () => {
      this.autosize();
      this.updateMenu();
    });
    textarea.addEventListener('blur', () => setTimeout(() => this.closeMenu(), 150));
  }

  setCommands(commands: readonly Command[]): void {
    this.commands = commands;
    if (!this.menu.hidden) this.updateMenu();
  }

  submit(): void {
    const text = this.textarea.value;
    if (!text.trim()) return;
    if (this.send(text)) {
      this.textarea.value = '';
      this.autosize();
      this.closeMenu();
    }
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (!this.menu.hidden && this.matches.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        this.selected = (this.selected + step + this.matches.length) % this.matches.length;
        this.paintMenu();
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        this.take(this.matches[this.selected]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.closeMenu();
        return;
      }
    }
    // isComposing: Enter that ends an IME composition is not a send.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit();
    }
  }

  private updateMenu(): void {
    const match = /^\/(\S*)$/.exec(this.textarea.value.slice(0, this.textarea.selectionStart));
    if (!match || this.commands.length === 0) {
      this.closeMenu();
      return;
    }
    const typed = (match[1] ?? '').toLowerCase();
    this.matches = this.commands.filter((c) => c.name.toLowerCase().startsWith(typed));
    this.selected = 0;
    if (this.matches.length === 0) this.closeMenu();
    else this.paintMenu();
  }

  private paintMenu(): void {
    this.menu.hidden = false;
    this.menu.replaceChildren(
      ...this.matches.map((c, i) => {
        const option = el('div', `completion${i === this.selected ? ' selected' : ''}`);
        option.setAttribute('role', 'option');
        option.append(el('span', 'completion-name', `/${c.name}`), el('span', 'completion-hint', c.hint ?? ''), el('span', 'completion-description', c.description));
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.take(c);
        });
        return option;
      }),
    );
  }

  private take(command: Command | undefined): void {
    if (!command) return;
    const rest = this.textarea.value.slice(this.textarea.selectionStart);
    this.textarea.value = `/${command.name} ${rest.trimStart()}`;
    const caret = command.name.length + 2;
    this.textarea.setSelectionRange(caret, caret);
    this.closeMenu();
    this.autosize();
  }

  private closeMenu(): void {
    this.menu.hidden = true;
    this.matches = [];
  }

  private autosize(): void {
    this.textarea.style.height = 'auto';
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, 240)}px`;
  }
}
