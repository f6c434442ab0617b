/**
 * The prompt box: Enter sends (during a turn: steers, or queues for an agent without steering),
 * Alt+Enter queues, Shift+Enter starts a new line, Escape cancels the running turn; Up in an empty box recalls the previous prompt; typing `/` at the start offers the
 * agent's slash commands, typing `@` offers the workspace's files and folders (arrows choose, Tab
 * or Enter takes one, Escape closes). A taken mention becomes a chip; Backspace at the start of
 * the box removes the last chip.
 */
import type { ChatMention, ChatStatus } from '../../src/protocol/chat';
import { el } from './render';

type Command = ChatStatus['commands'][number];

interface MenuEntry {
  readonly label: string;
  readonly hint: string;
  readonly description: string;
  readonly take: () => void;
}

export interface PromptHooks {
  /** `queue`: Alt+Enter, queue it while a turn runs. */
  send(text: string, how: 'send' | 'queue'): boolean;
  /** Asks the host for the workspace paths matching what follows `@`. */
  queryMentions(requestId: number, query: string): void;
  /** A path was taken from the `@` menu. */
  mention(item: ChatMention): void;
  /** Escape with no menu open: cancel the running turn (true when one ran). */
  cancelTurn(): boolean;
  /** Backspace in an empty prefix: drop the last chip. */
  removeLastChip(): boolean;
}

const MENTION = /(^|\s)@([^\s@]*)$/;
/** Prompts Up can recall. */
const MAX_RECALLED = 50;

export class PromptBox {
  private commands: readonly Command[] = [];
  private entries: MenuEntry[] = [];
  private selected = 0;
  private mentionRequest = 0;
  /** Prompts sent from this box, oldest first; `recalled` is the one Up showed last. */
  private readonly sent: string[] = [];
  private recalled: number | undefined;

  constructor(
    readonly textarea: HTMLTextAreaElement,
    private readonly menu: HTMLElement,
    private readonly hooks: PromptHooks,
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

  /** The host's answer to a mention query; answers to older queries are dropped. */
  showMentions(requestId: number, items: readonly ChatMention[]): void {
    if (requestId !== this.mentionRequest || !this.mentionQuery()) return;
    this.entries = items.map((item) => ({
      label: `${item.isFolder ? '▸ ' : ''}${item.path.slice(item.path.lastIndexOf('/') + 1)}${item.isFolder ? '/' : ''}`,
      hint: item.open ? 'open' : '',
      description: item.path,
      take: () => this.takeMention(item),
    }));
    this.selected = 0;
    if (this.entries.length === 0) this.closeMenu();
    else this.paintMenu();
  }

  submit(how: 'send' | 'queue' = 'send'): void {
    const text = this.textarea.value;
    if (!text.trim()) return;
    if (this.hooks.send(text, how)) {
      if (this.sent.at(-1) !== text) this.sent.push(text);
      if (this.sent.length > MAX_RECALLED) this.sent.shift();
      this.recalled = undefined;
      this.textarea.value = '';
      this.autosize();
      this.closeMenu();
    }
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (!this.menu.hidden && this.entries.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        this.selected = (this.selected + step + this.entries.length) % this.entries.length;
        this.paintMenu();
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        this.entries[this.selected]?.take();
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.closeMenu();
        return;
      }
    }
    if (e.key === 'Backspace' && this.textarea.selectionStart === 0 && this.textarea.selectionEnd === 0) {
      if (this.hooks.removeLastChip()) e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && this.hooks.cancelTurn()) {
      e.preventDefault();
      return;
    }
    if (e.key === 'ArrowUp' && !e.altKey && !e.shiftKey && this.recall()) {
      e.preventDefault();
      return;
    }
    // isComposing: Enter that ends an IME composition is not a send.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit(e.altKey ? 'queue' : 'send');
    }
  }

  /** Up in an empty box (or on a prompt Up just recalled) shows the prompt before. */
  private recall(): boolean {
    const value = this.textarea.value;
    const onRecalled = this.recalled !== undefined && value === this.sent[this.recalled];
    if (value !== '' && !onRecalled) return false;
    const index = onRecalled ? (this.recalled as number) - 1 : this.sent.length - 1;
    const text = this.sent[index];
    if (text === undefined) return false;
    this.recalled = index;
    this.textarea.value = text;
    this.textarea.setSelectionRange(text.length, text.length);
    this.autosize();
    this.textarea.dispatchEvent(new Event('draft'));
    return true;
  }

  private mentionQuery(): RegExpExecArray | null {
    return MENTION.exec(this.textarea.value.slice(0, this.textarea.selectionStart));
  }

  private updateMenu(): void {
    const before = this.textarea.value.slice(0, this.textarea.selectionStart);
    const mention = this.mentionQuery();
    if (mention) {
      this.hooks.queryMentions(++this.mentionRequest, mention[2] ?? '');
      return;
    }
    const command = /^\/(\S*)$/.exec(before);
    if (!command || this.commands.length === 0) {
      this.closeMenu();
      return;
    }
    const typed = (command[1] ?? '').toLowerCase();
    this.entries = this.commands
      .filter((c) => c.name.toLowerCase().startsWith(typed))
      .map((c) => ({ label: `/${c.name}`, hint: c.hint ?? '', description: c.description, take: () => this.takeCommand(c) }));
    this.selected = 0;
    if (this.entries.length === 0) this.closeMenu();
    else this.paintMenu();
  }

  private paintMenu(): void {
    this.menu.hidden = false;
    this.menu.replaceChildren(
      ...this.entries.map((entry, i) => {
        const option = el('div', `completion${i === this.selected ? ' selected' : ''}`);
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(i === this.selected));
        option.append(el('span', 'completion-name', entry.label), el('span', 'completion-hint', entry.hint), el('span', 'completion-description', entry.description));
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          entry.take();
        });
        return option;
      }),
    );
    this.menu.querySelector('.selected')?.scrollIntoView({ block: 'nearest' });
  }

  private takeCommand(command: Command): void {
    const rest = this.textarea.value.slice(this.textarea.selectionStart);
    this.textarea.value = `/${command.name} ${rest.trimStart()}`;
    const caret = command.name.length + 2;
    this.textarea.setSelectionRange(caret, caret);
    this.closeMenu();
    this.autosize();
  }

  /** The typed `@query` leaves the text; the path becomes a chip. */
  private takeMention(item: ChatMention): void {
    const caret = this.textarea.selectionStart;
    const before = this.textarea.value.slice(0, caret);
    const start = before.lastIndexOf('@');
    this.textarea.value = before.slice(0, start) + this.textarea.value.slice(caret);
    this.textarea.setSelectionRange(start, start);
    this.closeMenu();
    this.autosize();
    this.hooks.mention(item);
    this.textarea.dispatchEvent(new Event('draft'));
  }

  private closeMenu(): void {
    this.menu.hidden = true;
    this.entries = [];
  }

  private autosize(): void {
    this.textarea.style.height = 'auto';
    this.textarea.style.height = `${Math.min(this.textarea.scrollHeight, 240)}px`;
  }
}
