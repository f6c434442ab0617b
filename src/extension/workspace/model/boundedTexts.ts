/**
 * Texts kept by id, oldest forgotten first once there are more than `maxEntries` of them or
 * they hold more than `maxChars` in all (pure). The newest text is always kept, however large.
 */
export class BoundedTexts {
  /** Insertion order is age: a Map iterates oldest first. */
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxChars: number },
  ) {}

  get size(): number {
    return this.texts.size;
  }

  get totalChars(): number {
    return this.chars;
  }

  get(id: string): string | undefined {
    return this.texts.get(id);
  }

  set(id: string, text: string): void {
    this.delete(id);
    this.texts.set(id, text);
    this.chars += text.length;
    for (const [oldest, oldText] of this.texts) {
      if (this.texts.size <= 1 || (this.texts.size <= this.limits.maxEntries && this.chars <= this.limits.maxChars)) break;
      this.texts.delete(oldest);
      this.chars -= oldText.length;
    }
  }

  delete(id: string): void {
    const text = this.texts.get(id);
    if (text === undefined) return;
    this.texts.delete(id);
    this.chars -= text.length;
  }
}
