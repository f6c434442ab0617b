/**
 * Carrying a conversation into a new session (pure): what the new session's first prompt carries
 * (the last compaction summary), and, without one, what the old session is asked for and how its
 * answer is read.
 */
import type { TranscriptEntry } from '../../session/model/transcript';

/** Sent to the old session when it has no compaction summary to carry. */
export const SUMMARY_REQUEST =
  'Summarize this conversation so that a new session can continue the work from it: the goal, what was done and decided, ' +
  'the files involved, and what is left to do. Reply with the summary only.';

/** The name of the chip the new session's first prompt carries. */
export const SUMMARY_ATTACHMENT = 'Summary of the earlier session';

/** The text block the first prompt of the new session carries. */
export function carriedSummary(summary: string): string {
  return `\nThis session continues an earlier conversation with you. Its summary:\n\n${summary.trim()}\n`;
}

/** The agent's answer to the prompt recorded at `promptIndex`: its messages after it, in order. */
export function answerAfter(entries: readonly TranscriptEntry[], promptIndex: number): string {
  const texts: string[] = [];
  for (let i = promptIndex + 1; i < entries.length; i++) {
    const entry = entries[i];
    if (entry?.type === 'message' && entry.role === 'agent' && entry.text.trim()) texts.push(entry.text.trim());
  }
  return texts.join('\n\n');
}
