import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { cardOf, type ToolCallState } from '../../session/model/toolCalls';
import { diffEditorTitle, isWholeFileContent } from './model/editorTitles';
import type { AgentSessions, SessionRecord } from '../../session/agentSessions';
import type { Config } from '../../config';
import { errorMessage, type Logger } from '../../base/log';
import { Disposable } from '../../base/lifecycle';
import type { Probes } from '../../base/probes';
import { callDisplayTitle, fileDisplayPath, titleContext } from '../../workspace/titles';
import { diffDocUri, type DiffDocumentProvider } from './diffDocuments';
import { currentTextOrUndefined } from '../../workspace/workspaceText';
import { revertHunkPieces } from './model/hunkPlacement';

/** How long the auto-open queue waits for one editor before opening the next. */
const AUTO_OPEN_WAIT_MS = 1500;

type DiffItem = Extract<acp.ToolCallContent, { type: 'diff' }>;
type IndexedDiff = { item: DiffItem; index: number };

/** Diffs grouped by file, in the order the files first appear. */
function groupByPath(diffs: IndexedDiff[]): IndexedDiff[][] {
  const groups = new Map<string, IndexedDiff[]>();
  for (const d of diffs) groups.set(d.item.path, [...(groups.get(d.item.path) ?? []), d]);
  return [...groups.values()];
}

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
    private readonly deps: { sessions: AgentSessions; config: Config; log: Logger; documents: DiffDocumentProvider; probes?: Probes },
  ) {
    super();
    if (deps.probes) {
      // What this renderer keeps per card, and the "before" texts kept beside VS Code's documents.
      this._register(deps.probes.gauge('kept.diffCards', () => new Set([...this.openedUris.keys(), ...this.autoOpened]).size));
      this._register(deps.probes.gauge('kept.diffBeforeChars', () => deps.documents.keptBeforeChars));
    }
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        // The setting is read only once a completed diff is found: reading it costs a
        // `getConfiguration` per change event otherwise (~11 ms over a 10,000-call storm).
        let autoOpen: boolean | undefined;
        for (const id of changes.toolCalls) {
          const call = session.state.toolCall(id);
          if (!call || call.status !== 'completed' || cardOf(call) !== 'diff') continue;
          autoOpen ??= deps.config.diffAutoOpen === 'onComplete';
          if (!autoOpen) return;
          this.autoOpen(session, call);
        }
      }),
    );
  }


  private forgetSession(sessionId: string): void {
    const prefix = cardKey(sessionId, '');
    for (const key of [...this.openedUris.keys()]) if (key.startsWith(prefix)) this.openedUris.delete(key);
    for (const key of [...this.autoOpened]) if (key.startsWith(prefix)) this.autoOpened.delete(key);
  }

  urisOf(sessionId: string, toolCallId: string): readonly string[] {
    return this.openedUris.get(cardKey(sessionId, toolCallId)) ?? [];
  }

  async open(session: SessionRecord, call: ToolCallState, options: { preserveFocus?: boolean } = {}): Promise<void> {
    const sessionId = session.state.sessionId;
    const diffs = call.content.flatMap((item, index) => (item.type === 'diff' ? [{ item, index }] : []));
    if (diffs.length === 0) return;
    const entries = (await Promise.all(groupByPath(diffs).map((group) => this.entriesOf(sessionId, call.id, group)))).flat();
    session.scope.once(this, () => this.forgetSession(sessionId));
    const ctx = titleContext();
    const showOptions: vscode.TextDocumentShowOptions = { preview: true, preserveFocus: options.preserveFocus ?? false };
    this.openedUris.set(
      cardKey(sessionId, call.id),
      entries.flatMap((e) => [e.left.toString(), e.right.toString()]),
    );
    if (entries.length === 1) {
      const [only] = entries;
      const title = diffEditorTitle({
        displayPath: fileDisplayPath(only.item.path, ctx),
        isNewFile: only.item.oldText == null,
        callTitle: callDisplayTitle(call, ctx),
      });
      await vscode.commands.executeCommand('vscode.diff', only.left, only.right, title, showOptions);
      return;
    }
    // The call's own title: VS Code's multi-diff editor appends the count of its entries itself.
    const title = callDisplayTitle(call, ctx);
    // Each entry is keyed by a URI of its own: several hunks of one file must stay distinct.
    await vscode.commands.executeCommand(
      'vscode.changes',
      title,
      entries.map((e) => [diffDocUri({ sessionId, toolCallId: call.id, index: e.index, side: 'new', path: e.item.path }), e.left, e.right]),
    );
  }

  /**
   * The editors for one file's diffs. Hunks that still stand in the file open in place: the whole
   * file before them beside the real file, editable, with the file's own line numbers. Otherwise
   * (a call-time snippet, a new file, a file changed since) each diff shows its own texts.
   */
  private async entriesOf(sessionId: string, toolCallId: string, group: IndexedDiff[]): Promise<DiffSides[]> {
    const [first] = group;
    const isNewFile = group.length === 1 && first.item.oldText == null;
    const current = await currentTextOrUndefined(first.item.path);
    if (!isNewFile && group.every((d) => d.item.oldText != null)) {
      const wholeFile = group.length === 1 && current !== undefined && isWholeFileContent(first.item.newText, current);
      const placed = current !== undefined ? revertHunkPieces(current, group.map((d) => ({ oldText: d.item.oldText ?? '', newText: d.item.newText }))) : undefined;
      if (!wholeFile && placed !== undefined) {
        const left = diffDocUri({ sessionId, toolCallId, index: first.index, side: 'before', path: first.item.path });
        this.deps.documents.rememberBefore(left, placed);
        return [{ index: first.index, item: first.item, left, right: vscode.Uri.file(first.item.path) }];
      }
    }
    return group.map(({ item, index }) => sidesOf(sessionId, toolCallId, index, item, current));
  }

  private autoOpen(session: SessionRecord, call: ToolCallState): void {
    const key = cardKey(session.state.sessionId, call.id);
    if (this.autoOpened.has(key)) return;
    this.autoOpened.add(key);
    const sessionId = session.state.sessionId;
    session.scope.once(this, () => this.forgetSession(sessionId));
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
}

/**
 * One diff shown by its own texts: the agent's old text on the left; on the right the real file
 * when the new text is its whole content (so it stays editable), else the agent's new text.
 */
function sidesOf(sessionId: string, toolCallId: string, index: number, item: DiffItem, current: string | undefined): DiffSides {
  const left = diffDocUri({ sessionId, toolCallId, index, side: 'old', path: item.path });
  const right =
    current !== undefined && isWholeFileContent(item.newText, current)
      ? vscode.Uri.file(item.path)
      : diffDocUri({ sessionId, toolCallId, index, side: 'new', path: item.path });
  return { index, item, left, right };
}

function cardKey(sessionId: string, toolCallId: string): string {
  return `${sessionId}\u0000${toolCallId}`;
}
