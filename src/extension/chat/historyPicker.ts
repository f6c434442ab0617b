import * as vscode from 'vscode';
import { historyDetails, normalizeQuery } from './model/historySearch';

/** One session as Session History lists it. */
export interface HistoryPickEntry {
  readonly sessionId: string;
  readonly title: string;
  /** When it last changed, for the description. */
  readonly updatedAt: string | undefined;
  readonly open: boolean;
  /** The recorded conversation's words (search), when there is a record. */
  readonly text: string | undefined;
}

/** What the item buttons do; each resolves once it is done (or was declined). */
export interface HistoryPickActions {
  /** Asks, then deletes; true when it was deleted (the item leaves the list). */
  delete(entry: HistoryPickEntry): Promise<boolean>;
  export(entry: HistoryPickEntry): Promise<void>;
}

interface Item extends vscode.QuickPickItem {
  readonly entry: HistoryPickEntry;
}

const DELETE_TOOLTIP = 'Delete';
const EXPORT_TOOLTIP = 'Export as Markdown';

/**
 * The Session History quick pick: titles filtered by VS Code as typed, the recorded conversation
 * searched too (a matching session's detail line shows the words around the match, and
 * `matchOnDetail` keeps it), and per item **Delete** and **Export as Markdown** buttons.
 * Resolves with the session picked, undefined when dismissed or when the list is emptied.
 */
export function pickFromHistory(entries: readonly HistoryPickEntry[], actions: HistoryPickActions, initialQuery = ''): Promise<HistoryPickEntry | undefined> {
  // Made here, not at import: nothing of VS Code's is built while the bundle loads.
  const buttons: vscode.QuickInputButton[] = [
    { iconPath: new vscode.ThemeIcon('markdown'), tooltip: EXPORT_TOOLTIP },
    { iconPath: new vscode.ThemeIcon('trash'), tooltip: DELETE_TOOLTIP },
  ];
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = 'ACP: Session History';
  quickPick.placeholder = 'Open a session with all its cards · type to search titles and conversations';
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  let listed = [...entries];
  const render = (): void => {
    const details = historyDetails(quickPick.value, listed);
    quickPick.items = listed.map((entry, i) => ({
      label: entry.title,
      description: [entry.open ? 'open now' : '', entry.updatedAt ? new Date(entry.updatedAt).toLocaleString() : ''].filter(Boolean).join(' · '),
      ...(details[i] ? { detail: details[i] } : {}),
      buttons,
      entry,
    }));
  };
  quickPick.value = initialQuery;
  render();
  let lastQuery = normalizeQuery(initialQuery);
  return new Promise<HistoryPickEntry | undefined>((resolve) => {
    let busy = false;
    const disposables: vscode.Disposable[] = [];
    const finish = (picked: HistoryPickEntry | undefined): void => {
      for (const d of disposables) d.dispose();
      quickPick.dispose();
      resolve(picked);
    };
    disposables.push(
      quickPick.onDidChangeValue((value) => {
        // Details change only when the query does (VS Code refilters the items it is given).
        const query = normalizeQuery(value);
        if (query === lastQuery) return;
        lastQuery = query;
        render();
      }),
      quickPick.onDidAccept(() => finish(quickPick.selectedItems[0]?.entry)),
      quickPick.onDidHide(() => {
        // A modal question hides nothing, but a focus change while it runs must not end the pick.
        if (!busy) finish(undefined);
      }),
      quickPick.onDidTriggerItemButton(({ button, item }) => {
        if (busy) return;
        if (button.tooltip === EXPORT_TOOLTIP) {
          // The Markdown opens in an editor: the pick is over.
          finish(undefined);
          void actions.export(item.entry);
          return;
        }
        busy = true;
        quickPick.ignoreFocusOut = true;
        const done = (): void => {
          busy = false;
          quickPick.ignoreFocusOut = false;
        };
        void actions.delete(item.entry).then(
          (deleted) => {
            done();
            if (!deleted) return quickPick.show();
            listed = listed.filter((e) => e.sessionId !== item.entry.sessionId);
            if (listed.length === 0) return finish(undefined);
            render();
            quickPick.show();
          },
          () => {
            done();
            quickPick.show();
          },
        );
      }),
    );
    quickPick.show();
  });
}
