import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { cardOf, type ToolCallState } from '../../core/toolCalls';
import { diffEditorTitle, isWholeFileContent, multiDiffTitle } from '../../core/editorTitles';
import type { AgentSessions, SessionRecord } from '../../connection/agentSessions';
import type { Config } from '../../config';
import { errorMessage, type Logger } from '../../log';
import { Disposable } from '../../util/lifecycle';
import { callDisplayTitle, fileDisplayPath, titleContext } from '../titles';
import { diffDocUri } from './diffDocuments';

/** How long the auto-open queue waits for one editor before opening the next. */
const AUTO_OPEN_WAIT_MS = 1500;

type DiffItem = Extract<acp.ToolCallContent, { type: 'diff' }>;

interface DiffSides {
  index: number;
  item: DiffItem;
  left: vscode.Uri;
  right: vscode.Uri;
}

/**
 * Opens diff cards in VS Code's diff editor: one diff → `vscode.diff`, several → the multi-diff
 * editor (`vscode.changes`). The left side is always a virtual document of the agent's old text
 * (empty for a new file); the right side is the real file when the card's new text is the file's
 * whole current content (so the user can keep editing), a virtual document otherwise.
 */
export class DiffEditors extends Disposable {
  /** URIs opened per card, for the API snapshot and tree clicks. */
  private readonly openedUris = new Map<string, string[]>();
  private readonly autoOpened = new Set<string>();
  private autoOpenChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: { sessions: AgentSessions; config: Config; log: Logger },
  ) {
    super();
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        if (deps.config.diffAutoOpen !== 'onComplete') return;
        for (const id of changes.toolCalls) {
          const call = session.state.toolCall(id);
          if (call && call.status === 'completed' && cardOf(call) === 'diff') this.autoOpen(session, call);
        }
      }),
    );
  }

  urisOf(sessionId: string, toolCallId: string): readonly string[] {
    return this.openedUris.get(cardKey(sessionId, toolCallId)) ?? [];
  }

  async open(session: SessionRecord, call: ToolCallState, options: { preserveFocus?: boolean } = {}): Promise<void> {
    const sessionId = session.state.sessionId;
    const diffs = call.content.flatMap((item, index) => (item.type === 'diff' ? [{ item, index }] : []));
    if (diffs.length === 0) return;
    const sides = await Promise.all(diffs.map(({ item, index }) => this.sidesOf(sessionId, call.id, index, item)));
    const ctx = titleContext();
    const showOptions: vscode.TextDocumentShowOptions = { preview: true, preserveFocus: options.preserveFocus ?? false };
    if (sides.length === 1) {
      const [only] = sides;
      const title = diffEditorTitle({
        displayPath: fileDisplayPath(only.item.path, ctx),
        isNewFile: only.item.oldText == null,
        callTitle: callDisplayTitle(call, ctx),
      });
      this.openedUris.set(cardKey(sessionId, call.id), [only.left.toString(), only.right.toString()]);
      await vscode.commands.executeCommand('vscode.diff', only.left, only.right, title, showOptions);
      return;
    }
    const files = new Set(sides.map((s) => s.item.path));
    const title = multiDiffTitle(callDisplayTitle(call, ctx), files.size, sides.length);
    this.openedUris.set(
      cardKey(sessionId, call.id),
      sides.flatMap((s) => [s.left.toString(), s.right.toString()]),
    );
    // Each entry is keyed by a URI of its own: several hunks of one file must stay distinct.
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      sides.map((s) => [diffDocUri({ sessionId, toolCallId: call.id, index: s.index, side: 'new', path: s.item.path }), s.left, s.right]),
    );
  }

  private autoOpen(session: SessionRecord, call: ToolCallState): void {
    const key = cardKey(session.state.sessionId, call.id);
    if (this.autoOpened.has(key)) return;
    this.autoOpened.add(key);
    // A loaded session replays its history: those edits are old news, open only on click.
    if (session.loading) return;
    // One after the other, in the order the edits completed: opening reads files first, and a
    // slower earlier open must not replace a later one in the preview slot.
    // `vscode.diff` may never settle when its editor is closed right away, so the queue waits
    // for each open only so long.
    this.autoOpenChain = this.autoOpenChain.then(() =>
      Promise.race([
        this.open(session, call, { preserveFocus: true }).catch((error: unknown) =>
          this.deps.log.error(`Could not open the diff of "${call.title}": ${errorMessage(error)}`),
        ),
        new Promise<void>((resolve) => setTimeout(resolve, AUTO_OPEN_WAIT_MS)),
      ]),
    );
  }

  private async sidesOf(sessionId: string, toolCallId: string, index: number, item: DiffItem): Promise<DiffSides> {
    const left = diffDocUri({ sessionId, toolCallId, index, side: 'old', path: item.path });
    const current = await readCurrentText(item.path);
    const right =
      current !== undefined && isWholeFileContent(item.newText, current)
        ? vscode.Uri.file(item.path)
        : diffDocUri({ sessionId, toolCallId, index, side: 'new', path: item.path });
    return { index, item, left, right };
  }
}

function cardKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}

/** The file's text as the user sees it: the open document (unsaved changes included), else disk. */
async function readCurrentText(fsPath: string): Promise<string | undefined> {
  const uri = vscode.Uri.file(fsPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
  if (open) return open.getText();
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
