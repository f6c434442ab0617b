/**
 * Which sessions wait for the person (pure): a turn that finished or failed, a question or a form,
 * in a session that was not on screen. One entry per session (a newer event replaces the older:
 * never a pile); showing the session clears it. The badge is their count.
 */

export type NotifySetting = 'whenAway' | 'always' | 'off';

export type AttentionKind = 'done' | 'failed' | 'question';

export interface AttentionEvent {
  readonly sessionId: string;
  readonly kind: AttentionKind;
  /** The agent and the session's title, as the notification names them. */
  readonly agentName: string;
  readonly title: string;
  /** What failed, for `failed`. */
  readonly detail?: string;
}

export function parseNotifySetting(value: unknown): NotifySetting {
  return value === 'always' || value === 'off' ? value : 'whenAway';
}

export class Attention {
  private readonly waiting = new Map<string, AttentionEvent>();

  /** How many sessions wait for the person (the view container's badge). */
  get count(): number {
    return this.waiting.size;
  }

  get events(): readonly AttentionEvent[] {
    return [...this.waiting.values()];
  }

  /**
   * Something happened in a session: recorded (replacing what it had) when the session is not on
   * screen. Returns whether to notify: `always`, or `whenAway` while it is not on screen; never
   * with `off` (nothing is recorded either).
   */
  raise(event: AttentionEvent, how: { setting: NotifySetting; onScreen: boolean }): boolean {
    if (how.setting === 'off') return false;
    if (!how.onScreen) this.waiting.set(event.sessionId, event);
    return how.setting === 'always' || !how.onScreen;
  }

  /** The session is on screen (or closed): it waits no more. True when it did. */
  seen(sessionId: string): boolean {
    return this.waiting.delete(sessionId);
  }
}

/** The notification's text: the agent and the session first, then what happened. */
export function attentionMessage(event: AttentionEvent): string {
  const who = `${event.agentName} · ${event.title}`;
  switch (event.kind) {
    case 'done':
      return `${who}: finished.`;
    case 'failed':
      return `${who}: the turn failed${event.detail ? `: ${event.detail.split('\n')[0] ?? ''}` : '.'}`;
    case 'question':
      return `${who}: needs your answer.`;
    default:
      return assertNever(event.kind);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unexpected attention kind: ${String(value)}`);
}
