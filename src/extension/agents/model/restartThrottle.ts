/**
 * Limits how often an agent is restarted (pure): a crashing agent must not be respawned in a
 * tight loop. At most `max` restarts in any `windowMs`.
 */
export class RestartThrottle {
  private readonly times: number[] = [];

  constructor(
    private readonly max = 3,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a restart if allowed; otherwise returns how long to wait, in ms. */
  tryRestart(): { ok: true } | { ok: false; retryInMs: number } {
    const now = this.now();
    while (this.times.length && now - this.times[0] >= this.windowMs) this.times.shift();
    if (this.times.length >= this.max) return { ok: false, retryInMs: this.windowMs - (now - this.times[0]) };
    this.times.push(now);
    return { ok: true };
  }
}
