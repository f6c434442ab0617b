/** Kept so a long session cannot grow the list without bound. */
const MAX_WARNINGS = 100;

/** A session's tolerated oddities (pure): the latest, how many there were, each passed on as it happens. */
export class WarningLog {
  private list: string[] = [];
  private total = 0;

  constructor(private readonly onWarning: ((message: string) => void) | undefined) {}

  /** The latest, oldest first. */
  get latest(): readonly string[] {
    return this.list;
  }

  get count(): number {
    return this.total;
  }

  add(message: string): void {
    this.total++;
    this.list.push(message);
    if (this.list.length > MAX_WARNINGS) this.list = this.list.slice(-MAX_WARNINGS);
    this.onWarning?.(message);
  }
}
