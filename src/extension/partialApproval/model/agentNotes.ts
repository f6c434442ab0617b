/**
 * What the agent must hear and could not be told by steering (pure): the outcome of a partial
 * approval or a reason for a rejection, held per session and sent at the start of its next
 * prompt, before the user's own text.
 */
export class AgentNotes {
  private readonly notes = new Map<string, string[]>();

  add(sessionId: string, text: string): void {
    const list = this.notes.get(sessionId) ?? [];
    list.push(text);
    this.notes.set(sessionId, list);
  }

  /** The notes waiting for the session's next prompt. */
  pending(sessionId: string): readonly string[] {
    return this.notes.get(sessionId) ?? [];
  }

  /** Takes the session's notes (the next prompt carries them): none are left. */
  take(sessionId: string): string[] {
    const list = this.notes.get(sessionId) ?? [];
    this.notes.delete(sessionId);
    return list;
  }

  /** Forgets the notes of every session not in `open` (closed sessions never prompt again). */
  forgetAllBut(open: ReadonlySet<string>): void {
    for (const id of [...this.notes.keys()]) if (!open.has(id)) this.notes.delete(id);
  }
}

/** The note blocks' text, as the first block of the prompt. */
export function notesPreamble(notes: readonly string[]): string {
  return ['[ACP Native: what happened to your last edit request]', ...notes, '[End of note. The user’s message follows.]'].join('\n\n');
}
