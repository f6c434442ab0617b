import { encodeText } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, type FileChange, type Snapshot } from '../../../src/extension/review/model/actionLog';

/** A text file's snapshot, as the action log keeps it. */
export const bytes = (text: string, bom = false): Snapshot => ({ kind: 'bytes', bytes: encodeText(text, bom) });

/** One change of `/w/f` by a tool call in turn 0 of session `s`, from `before` to `after`. */
export function loggedChange(before: Snapshot, after: Snapshot): FileChange {
  const log = new ActionLog();
  log.beginTurn('s', 0);
  const change = log.record('s', '/w/f', 'tool', before);
  log.setAfter(change, after);
  return change;
}
