import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import { OutputPseudoterminal } from './outputPseudoterminal';
import type { CommandEnd } from './model/terminalText';
import type { TerminalPanel, TerminalPanels } from './clientTerminals';

/** One terminal panel showing a command: an agent's display terminal or a client terminal. */
export interface TerminalView {
  readonly terminalId: string;
  /** The panel's name now (it follows its card's title, see `followsCard`). */
  name: string;
  /**
   * Created with a stand-in name ("Terminal", as Claude's adapter titles a command while it streams
   * in): the panel takes its card's title when the title changes.
   */
  readonly followsCard: boolean;
  readonly terminal: vscode.Terminal;
  readonly pty: OutputPseudoterminal;
}

/**
 * The registry of terminal panels by ACP terminal id, shared by display terminals (announced in
 * `_meta`) and client terminals (`terminal/create`), so a tool call's `{type:'terminal'}` content
 * finds its panel whichever way it was made.
 */
export class TerminalViews extends Disposable implements TerminalPanels {
  private readonly views = new Map<string, TerminalView>();

  constructor(
    /**
     * How often a panel is given output (ms) when not flooded: longer while the window is behind
     * (`pacing/`); a flood's live tail keeps its own pace.
     */
    private readonly deliverEvery?: () => number,
  ) {
    super();
    this._register(
      vscode.window.onDidCloseTerminal((closed) => {
        for (const [id, view] of this.views) {
          if (view.terminal === closed) {
            // VS Code tells the pseudoterminal only if it had started it: a panel closed before
            // that must still stop its command (close() runs once).
            view.pty.close();
            this.views.delete(id);
            this._unregister(view.terminal);
            view.pty.dispose();
          }
        }
      }),
    );
  }

  get(terminalId: string): TerminalView | undefined {
    return this.views.get(terminalId);
  }

  /** Creates the panel for an id, once. The panel appears without taking focus. */
  create(options: { terminalId: string; name: string; header?: string; onUserClose?: () => void; show?: boolean }): TerminalView {
    const existing = this.views.get(options.terminalId);
    if (existing) return existing;
    const pty = new OutputPseudoterminal({ header: options.header, onUserClose: options.onUserClose, ...(this.deliverEvery ? { deliverEvery: this.deliverEvery } : {}) });
    // A name given here is static: VS Code then ignores the pseudoterminal's renames. A stand-in
    // ("Terminal") is given through the pseudoterminal instead, so the command's title can follow.
    const standIn = isStandInName(options.name);
    if (standIn) pty.rename(options.name || 'Terminal');
    const terminal = vscode.window.createTerminal({
      // An empty name is no static name: the title comes from the pseudoterminal.
      name: standIn ? '' : options.name,
      pty,
      iconPath: new vscode.ThemeIcon('robot'),
    });
    this._register(terminal);
    const view: TerminalView = { terminalId: options.terminalId, name: options.name, followsCard: standIn, terminal, pty };
    this.views.set(options.terminalId, view);
    if (options.show !== false) terminal.show(true);
    return view;
  }

  /** The client terminals' port: a panel is its pseudoterminal. */
  open(options: { terminalId: string; name: string; header?: string; onUserClose?: () => void }): TerminalPanel {
    return this.create(options).pty;
  }

  /** The card of the panel's command was retitled: a panel that follows its card takes the title. */
  cardRetitled(terminalId: string, title: string): void {
    const view = this.views.get(terminalId);
    if (!view?.followsCard || !title.trim() || isStandInName(title) || title === view.name) return;
    view.name = title;
    view.pty.rename(title);
  }

  write(terminalId: string, data: string | Uint8Array): void {
    this.views.get(terminalId)?.pty.write(data);
  }

  end(terminalId: string, end: CommandEnd): void {
    this.views.get(terminalId)?.pty.end(end);
  }

  reveal(terminalId: string): boolean {
    const view = this.views.get(terminalId);
    view?.terminal.show(false);
    return view !== undefined;
  }
}

/** Names that say nothing about the command: a panel so named takes the card's title when it comes. */
export function isStandInName(name: string): boolean {
  return STAND_IN_NAMES.has(name.trim().toLowerCase());
}

const STAND_IN_NAMES = new Set(['', 'terminal', 'agent command']);
