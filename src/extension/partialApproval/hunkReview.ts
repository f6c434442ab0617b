import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import type { CommandTable } from '../base/commandTable';
import type { PermissionService } from '../permissions/permissionService';
import { SCRATCH_SCHEME, type ScratchDocuments } from '../workspace/scratchDocuments';
import { keptSummary } from './model/hunkChoice';
import type { PartialApprovals } from './partialApprovals';

export const REVIEW_HUNKS_COMMAND = 'acpNative.partial.reviewHunks';
export const TOGGLE_HUNK_COMMAND = 'acpNative.partial.toggleHunk';
export const ALLOW_SELECTED_COMMAND = 'acpNative.partial.allowSelected';
export const REJECT_WITH_REASON_COMMAND = 'acpNative.partial.rejectWithReason';

interface Review {
  readonly questionId: number;
  readonly left: vscode.Uri;
  readonly right: vscode.Uri;
  /** Hunks marked Keep (all at first). */
  readonly keep: Set<number>;
  readonly total: number;
  readonly starts: readonly number[];
  /** The question was answered or cancelled while the editor was open. */
  closed: boolean;
}

/**
 * **Review hunks** at a question: the proposed edit as a diff editor (the file now ↔ what the agent
 * proposes), each hunk marked Keep / Reject by CodeLens over the right side, with **Allow
 * selected** and **Reject…** at the top. The choice is the question's answer
 * (`PartialApprovals.answer`); a question cancelled meanwhile leaves the lenses saying so.
 */
export class HunkReview extends Disposable implements vscode.CodeLensProvider {
  private readonly reviews = new Map<number, Review>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;

  constructor(private readonly deps: { partial: PartialApprovals; permissions: PermissionService; scratch: ScratchDocuments }) {
    super();
    this._register(vscode.languages.registerCodeLensProvider({ scheme: SCRATCH_SCHEME }, this));
    this._register(
      deps.permissions.requests.onDidChange(() => {
        let changed = false;
        for (const review of this.reviews.values()) {
          if (!review.closed && !deps.permissions.requests.isOpen(review.questionId)) {
            review.closed = true;
            changed = true;
          }
        }
        if (changed) this.changeEmitter.fire();
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        for (const [id, review] of this.reviews) {
          if (review.closed && doc.uri.toString() === review.right.toString()) {
            this.reviews.delete(id);
            deps.scratch.delete(review.left);
            deps.scratch.delete(review.right);
          }
        }
      }),
    );
  }

  /** The hunks a review marks Keep now (for tests and the chat). */
  selection(questionId: number): number[] | undefined {
    const review = this.reviews.get(questionId);
    return review ? [...review.keep].sort((a, b) => a - b) : undefined;
  }

  async open(questionId: number): Promise<void> {
    const question = this.deps.permissions.requests.pending().find((q) => q.id === questionId);
    if (!question) throw new Error('That question is no longer open (answered or cancelled).');
    const proposal = this.deps.partial.proposal(question);
    if (!proposal.ok) throw new Error(`No hunks to review: ${proposal.reason}.`);
    const { edit } = proposal;
    let review = this.reviews.get(questionId);
    if (!review) {
      review = {
        questionId,
        left: this.deps.scratch.put(edit.before, edit.path, 'now'),
        right: this.deps.scratch.put(edit.after, edit.path, 'proposed'),
        keep: new Set(edit.hunks.map((_, i) => i)),
        total: edit.hunks.length,
        starts: edit.hunks.map((h) => h.newStart),
        closed: false,
      };
      this.reviews.set(questionId, review);
    }
    await vscode.commands.executeCommand('vscode.diff', review.left, review.right, `${nodePath.basename(edit.path)}: choose the hunks to keep`, { preview: false });
  }

  toggle(questionId: number, index: number): void {
    const review = this.reviews.get(questionId);
    if (!review || review.closed) return;
    if (review.keep.has(index)) review.keep.delete(index);
    else review.keep.add(index);
    this.changeEmitter.fire();
  }

  /** Answers with the hunks marked Keep, with the question's allow-once option. */
  async allowSelected(questionId: number): Promise<boolean> {
    const review = this.reviews.get(questionId);
    if (!review || review.closed) throw new Error('That question is no longer open (answered or cancelled).');
    const answered = this.deps.partial.answer(questionId, 'allow_once', { keepHunks: [...review.keep] });
    if (answered) await this.closeEditor(review);
    return answered;
  }

  /** Rejects, with a one-line reason asked for (empty: none is sent). */
  async rejectWithReason(questionId: number): Promise<boolean> {
    if (!this.deps.permissions.requests.isOpen(questionId)) throw new Error('That question is no longer open (answered or cancelled).');
    const reason = await vscode.window.showInputBox({ title: 'Reject the edit', prompt: 'Why? (optional, one line: sent to the agent)', placeHolder: 'e.g. keep the old function name' });
    if (reason === undefined) return false;
    const answered = this.deps.partial.answer(questionId, 'reject_once', reason.trim() ? { reason } : {});
    const review = this.reviews.get(questionId);
    if (answered && review) await this.closeEditor(review);
    return answered;
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const review = [...this.reviews.values()].find((r) => r.right.toString() === doc.uri.toString());
    if (!review) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (review.closed) return [new vscode.CodeLens(top, { title: 'This question is no longer open (answered or cancelled): nothing more to choose', command: '' })];
    const { questionId } = review;
    const lenses = [
      new vscode.CodeLens(top, { title: `Allow selected (${keptSummary(review.keep.size, review.total)})`, command: ALLOW_SELECTED_COMMAND, arguments: [questionId] }),
      new vscode.CodeLens(top, { title: 'Reject…', command: REJECT_WITH_REASON_COMMAND, arguments: [questionId] }),
    ];
    review.starts.forEach((start, index) => {
      const line = Math.min(start, Math.max(0, doc.lineCount - 1));
      const kept = review.keep.has(index);
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: kept ? `Hunk ${index + 1}: Keep ✓ · Reject` : `Hunk ${index + 1}: Keep · Reject ✓`,
          tooltip: kept ? 'Marked Keep: click to reject this hunk' : 'Marked Reject: click to keep this hunk',
          command: TOGGLE_HUNK_COMMAND,
          arguments: [questionId, index],
        }),
      );
    });
    return lenses;
  }

  private async closeEditor(review: Review): Promise<void> {
    review.closed = true;
    this.changeEmitter.fire();
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === review.right.toString());
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }
}

/** The commands of partial approval, for the extension's command table. */
export function partialCommands(review: HunkReview): CommandTable {
  const id = (value: unknown): number => {
    if (typeof value !== 'number') throw new Error('Which question? This command is run from a question’s Review hunks.');
    return value;
  };
  return {
    [REVIEW_HUNKS_COMMAND]: (questionId) => review.open(id(questionId)),
    [TOGGLE_HUNK_COMMAND]: (questionId, index) => review.toggle(id(questionId), id(index)),
    [ALLOW_SELECTED_COMMAND]: (questionId) => review.allowSelected(id(questionId)),
    [REJECT_WITH_REASON_COMMAND]: (questionId) => review.rejectWithReason(id(questionId)),
  };
}
