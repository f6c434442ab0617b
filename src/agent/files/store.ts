/**
 * The seam between the file tools and storage. A store reads and writes files and returns storage
 * facts only — the LF-normalized text before and after each mutation, and where an edit replaced
 * text — never diffs or UI: the tools own presentation. Two stores: the local disk
 * (`./local`), and the client's `fs/*` methods (`./client`), chosen per connection by what the
 * client advertises (`./select`). Tools never know which one they have.
 */
import type { ReplacementSite } from '../textEdit';

/** A file's text (LF line endings), or the fact that it is binary / not UTF-8. */
export type TextFile = { kind: 'text'; text: string } | { kind: 'binary'; size?: number };

/** What a mutation changed. `before: null` for a create, or an existing binary/non-UTF-8 file. */
export interface MutationFacts {
  before: string | null;
  after: string;
  created: boolean;
}

/** An edit's facts, plus where it replaced text (offsets in `before` and `after`). */
export interface EditFacts extends MutationFacts {
  sites: ReplacementSite[];
}

/** Failures the tools should show are `ToolError`s; anything else is a bug. */
export interface FileStore {
  readText(filePath: string): Promise<TextFile>;
  /** Writes `content` whole, creating the file (and its folders) if needed. */
  writeText(filePath: string, content: string): Promise<MutationFacts>;
  /**
   * Replaces `oldString` (LF text) in the file, once or everywhere. An empty `oldString` creates
   * the file, or fills an empty one, with `newString`.
   */
  editText(filePath: string, oldString: string, newString: string, replaceAll: boolean): Promise<EditFacts>;
}
