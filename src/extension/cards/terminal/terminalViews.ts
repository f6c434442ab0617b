import * as vscode from 'vscode';
import { Disposable } from '../../base/lifecycle';
import { OutputPseudoterminal } from './outputPseudoterminal';
import type { CommandEnd } from './model/terminalText';
import type { TerminalPanel, TerminalPanels } from './clientTerminals';

/** One terminal panel showing a command: an agent's display terminal or a client terminal. */
export interface TerminalView {
  readonly terminalId: string;
  readonly name: string;
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

  constructor() {
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
    const pty = new OutputPseudoterminal({ header: options.header, onUserClose: options.onUserClose });
    const terminal = vscode.window.createTerminal({
      name: options.name,
      pty,
      iconPath: new vscode.ThemeIcon('robot'),
    });
    this._register(terminal);
    const view: TerminalView = { terminalId: options.terminalId, name: options.name, terminal, pty };
    this.views.set(options.terminalId, view);
    if (options.show !== false) terminal.show(true);
    return view;
  }

  /** The client terminals' port: a panel is its pseudoterminal. */
  open(options: { terminalId: string; name: string; header?: string; onUserClose?: () => void }): TerminalPanel {
    return this.create(options).pty;
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
