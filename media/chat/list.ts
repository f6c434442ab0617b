/**
 * The conversation list. Every item gets a light row element (the newest at once, older ones a
 * frame's budget at a time, above them), but its content (markdown above all) is built only when
 * the row comes near the viewport, and rows off screen skip layout and paint
 * (`content-visibility: auto`). A 2,000-message session opens and scrolls like a short
 * one; a patch touches only the rows it names. Text streaming into a message (`append` changes) is
 * rendered at most once a frame, however many chunks arrived in it.
 */
import type { ChatChange, ChatItem } from '../../src/protocol/chat';
import { logWork } from './workLog';

export interface RowRenderer {
  /**
   * Fills a row for an item (the row is empty or holds an older rendering of it). False when a
   * long message was only partly rendered: the row is rendered again on the next frame.
   */
  render(row: HTMLElement, item: ChatItem): boolean;
  /**
   * The row's message grew by `added` since the row was last rendered: renders what was added
   * (or the whole item, when the row does not show the text before it). False as for `render`.
   */
  grow(row: HTMLElement, item: ChatItem, added: string): boolean;
}

/** Rows created at once when a session opens (the newest): older ones follow a frame's budget at a time. */
const FIRST_ROWS = 100;
/**
 * Rows built at once (the newest) when a session opens or a patch adds rows while the view follows
 * the end: about a screenful. Any other row is built when it comes near the viewport: a storm of
 * tool calls adds thousands of rows in a second, most of which nobody scrolls back to.
 */
const NEWEST_BUILT = 30;
/** At most this many older rows a frame: creating them is cheap, laying them out and observing them is not. */
const ROWS_PER_FRAME = 500;
/**
 * Rows are grouped in blocks of this many, each skipping layout and paint while off screen
 * (`content-visibility: auto`): a frame costs what is near the viewport, not every row's box.
 */
const CHUNK_ROWS = 100;
/** How far outside the viewport rows are built ahead of scrolling. */
const BUILD_MARGIN = '800px 0px';
/** Building rows stops for the frame after this long; the rest waits for the next frame. */
const FRAME_BUDGET_MS = 8;
/**
 * A growing message whose render took longer than this waits that long twice over before the next
 * one: a huge open block (a paragraph of 100,000 characters) slows its own updates, not the page.
 */
const SLOW_GROWTH_MS = 8;

export class ChatList {
  private items: ChatItem[] = [];
  /** By item index; undefined for an older row not created yet (see `createEarlier`). */
  private rows: (HTMLElement | undefined)[] = [];
  /** Index of the oldest row created: rows before it are still to come. */
  private firstCreated = 0;
  private creationScheduled = false;
  /** The blocks of CHUNK_ROWS rows, by `index / CHUNK_ROWS`. */
  private chunks: (HTMLElement | undefined)[] = [];
  /** Rows whose item changed while they were unbuilt or off screen: built when seen. */
  private readonly dirty = new Set<HTMLElement>();
  /**
   * Watches the rows of the blocks near the viewport that have work waiting (not built yet, or
   * changed since): a built row is let go. An observed row costs every frame (intersections are
   * computed per target): a storm that keeps hundreds of finished rows observed made that the
   * page's largest cost. Whether a built row is on screen is asked of its block (`near`).
   */
  private readonly observer: IntersectionObserver;
  /** Watches the blocks: a few dozen targets instead of every row of a long session. */
  private readonly chunkObserver: IntersectionObserver;
  private readonly itemOf = new WeakMap<HTMLElement, number>();
  /** Rows seen (near the viewport) that wait to be built, a frame's budget at a time. */
  private readonly queue = new Set<HTMLElement>();
  private frameRequested = false;
  /** Rows whose message grew since their last render: rendered once, on the next frame. */
  private readonly growing = new Set<HTMLElement>();
  private growthScheduled = false;
  /**
   * What rows' messages grew by since their last render. The item's text grows too (`+`, a rope),
   * but only the growth is rendered: reading the whole text a frame would copy it flat each time.
   */
  private readonly added = new Map<HTMLElement, string>();
  /** No growth renders before this time (see SLOW_GROWTH_MS). */
  private slowUntil = 0;
  /**
   * The view follows the newest rows: until the person scrolls away from the end, and again once
   * they scroll back to it. A state, not a look at the scroll position before each change: blocks
   * off screen take their real height only when laid out near the viewport (a long plain answer's
   * pieces, rows), which moves the end after the view jumped there: the next change scrolls to
   * the end again, where a look at the position would have found the view no longer at the end.
   */
  private following = true;
  /** Where the view's own last scroll to the end left it (its scroll event is not the person's). */
  private ownScrollTop = -1;

  constructor(
    private readonly container: HTMLElement,
    private readonly scroller: HTMLElement,
    private readonly renderer: RowRenderer,
  ) {
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: scroller, rootMargin: BUILD_MARGIN });
    this.chunkObserver = new IntersectionObserver((entries) => this.onChunkIntersect(entries), { root: scroller, rootMargin: BUILD_MARGIN });
    scroller.addEventListener('scroll', () => {
      if (Math.abs(scroller.scrollTop - this.ownScrollTop) > 1) this.following = this.atEnd();
    }, { passive: true });
  }

  /** Whether the view follows the newest rows (see `following`). */
  get followsEnd(): boolean {
    return this.following;
  }

  get length(): number {
    return this.items.length;
  }

  /** How many rows have their content built (for the measurements). */
  builtCount(): number {
    return this.rows.filter((r) => r?.dataset.built === '1').length;
  }

  reset(items: readonly ChatItem[]): void {
    this.observer.disconnect();
    this.chunkObserver.disconnect();
    this.dirty.clear();
    this.queue.clear();
    this.growing.clear();
    this.added.clear();
    this.items = [...items];
    this.rows = new Array<HTMLElement | undefined>(this.items.length);
    this.firstCreated = Math.max(0, this.items.length - FIRST_ROWS);
    this.chunks = [];
    this.container.replaceChildren();
    const newest: HTMLElement[] = [];
    for (let index = this.firstCreated; index < this.items.length; index++) {
      const row = (this.rows[index] = this.newRow(this.items[index] as ChatItem, index));
      this.chunkOf(index, 'end').append(row);
      newest.push(row);
    }
    // The newest rows are what a person looks at first: build them now, the rest when seen.
    for (const row of newest.slice(-NEWEST_BUILT)) this.build(row);
    this.scrollToEnd();
    this.scheduleCreation();
  }

  private scheduleCreation(): void {
    if (this.firstCreated === 0 || this.creationScheduled) return;
    this.creationScheduled = true;
    requestAnimationFrame(() => this.createEarlier());
  }

  /**
   * Creates older rows until the frame's budget is spent and puts them above the others, keeping
   * what is on screen where it was: a 10,000-row session opens without one long task.
   */
  private createEarlier(): void {
    this.creationScheduled = false;
    const started = performance.now();
    const created: HTMLElement[] = [];
    let index = this.firstCreated;
    const last = Math.max(0, index - ROWS_PER_FRAME);
    while (index > last && performance.now() - started < FRAME_BUDGET_MS) {
      for (const stop = Math.max(last, index - 100); index > stop; ) {
        index--;
        const row = (this.rows[index] = this.newRow(this.items[index] as ChatItem, index));
        created.push(row);
      }
    }
    this.firstCreated = index;
    const follow = this.following;
    const height = follow ? 0 : this.scroller.scrollHeight;
    // Oldest last: each row goes in front of its block, each new block in front of the list.
    for (const row of created) this.chunkOf(Number(row.dataset.index), 'start').prepend(row);
    if (follow) this.scrollToEnd();
    else this.scroller.scrollTop += this.scroller.scrollHeight - height;
    this.scheduleCreation();
  }

  patch(length: number, changed: readonly ChatChange[]): void {
    const follow = this.following;
    const before = this.items.length;
    if (length < this.items.length) {
      for (const row of this.rows.splice(length)) {
        if (!row) continue;
        this.added.delete(row);
        this.growing.delete(row);
        this.observer.unobserve(row);
        row.remove();
      }
      for (const chunk of this.chunks.splice(Math.ceil(length / CHUNK_ROWS))) {
        if (!chunk) continue;
        this.chunkObserver.unobserve(chunk);
        chunk.remove();
      }
      this.firstCreated = Math.min(this.firstCreated, length);
      this.items.length = length;
    }
    const added: HTMLElement[] = [];
    for (const change of changed) {
      if ('append' in change) {
        this.grow(change.index, change.append);
        continue;
      }
      const { index, item } = change;
      if (index < this.items.length) {
        this.items[index] = item;
        const row = this.rows[index];
        if (row) {
          this.growing.delete(row);
          this.refresh(row);
        }
      } else {
        // Appended (changes come sorted by index; any gap is filled by the next ones).
        this.items[index] = item;
        const row = this.newRow(item, index);
        this.rows[index] = row;
        this.chunkOf(index, 'end').append(row);
        added.push(row);
      }
    }
    // On screen at once when the view follows the end; the others when they come near the viewport (`onIntersect`).
    if (follow) for (const row of added.slice(-NEWEST_BUILT)) this.build(row);
    // Text appended is rendered (and followed) on the next frame; reading the layout here would only force it.
    if (follow && (added.length > 0 || changed.some((change) => !('append' in change)) || length < before)) this.scrollToEnd();
    logWork(() => `patch:${changed.length}`);
  }

  /** A message's text grew: the row is rendered on the next frame (with everything else that grew by then). */
  private grow(index: number, text: string): void {
    const item = this.items[index];
    if (item?.kind !== 'message') {
      console.warn(`chat: text appended to item ${index}, which is not a message`);
      return;
    }
    this.items[index] = { ...item, text: item.text + text };
    const row = this.rows[index];
    if (!row) return; // created later, with the text as it is then
    this.added.set(row, (this.added.get(row) ?? '') + text);
    this.growing.add(row);
    this.scheduleGrowth();
  }

  private scheduleGrowth(): void {
    if (this.growthScheduled) return;
    this.growthScheduled = true;
    const wait = this.slowUntil - performance.now();
    if (wait > 0) setTimeout(() => requestAnimationFrame(() => this.renderGrowth()), wait);
    else requestAnimationFrame(() => this.renderGrowth());
  }

  private renderGrowth(): void {
    const started = performance.now();
    this.growthScheduled = false;
    const follow = this.following;
    const rows = [...this.growing];
    this.growing.clear();
    for (const row of rows) this.refreshGrown(row);
    if (follow) this.scrollToEnd();
    const now = performance.now();
    const cost = now - started;
    this.slowUntil = cost > SLOW_GROWTH_MS ? now + cost * 2 : 0;
    logWork(() => `frame:${rows.length}rows:${cost.toFixed(1)}ms`);
  }

  atEnd(): boolean {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < 40;
  }

  /** Shows the newest rows, and follows them from now on. */
  scrollToEnd(): void {
    this.following = true;
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.ownScrollTop = this.scroller.scrollTop;
  }

  /** The block that holds row `index`, created (at the list's start or end) when it is the first of it. */
  private chunkOf(index: number, where: 'start' | 'end'): HTMLElement {
    const at = Math.floor(index / CHUNK_ROWS);
    let chunk = this.chunks[at];
    if (!chunk) {
      chunk = document.createElement('div');
      chunk.className = 'rows-chunk';
      this.chunks[at] = chunk;
      this.chunkObserver.observe(chunk);
      if (where === 'start') this.container.prepend(chunk);
      else this.container.append(chunk);
    }
    return chunk;
  }

  private newRow(item: ChatItem, index: number): HTMLElement {
    const row = document.createElement('div');
    row.className = `row row-${item.kind === 'message' ? item.role : item.kind === 'toolCall' ? 'tool' : item.kind}`;
    row.dataset.index = String(index);
    this.itemOf.set(row, index);
    // Its block decides when it is watched (see onChunkIntersect); a block near the viewport already is.
    if (this.chunks[Math.floor(index / CHUNK_ROWS)]?.dataset.near === '1') this.observer.observe(row);
    return row;
  }

  /** Whether the row's block is near the viewport (its rows may be seen; see `onChunkIntersect`). */
  private near(row: HTMLElement): boolean {
    const index = this.itemOf.get(row);
    return index !== undefined && this.chunks[Math.floor(index / CHUNK_ROWS)]?.dataset.near === '1';
  }

  /** A block came near the viewport (its rows are watched) or left it (they are not). */
  private onChunkIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const chunk = entry.target as HTMLElement;
      const near = entry.isIntersecting;
      if ((chunk.dataset.near === '1') === near) continue;
      chunk.dataset.near = near ? '1' : '0';
      for (const row of chunk.children as HTMLCollectionOf<HTMLElement>) {
        if (near) {
          if (row.dataset.built !== '1' || this.dirty.has(row)) this.observer.observe(row);
        } else {
          this.observer.unobserve(row);
          row.dataset.visible = '0';
          this.queue.delete(row);
        }
      }
    }
  }

  private refresh(row: HTMLElement): void {
    if (row.dataset.built === '1' && this.near(row)) {
      this.build(row);
      return;
    }
    this.dirty.add(row);
    // Built when it comes near the viewport.
    if (this.near(row)) this.observer.observe(row);
  }

  /** A row whose message grew (or was left partly rendered): renders what was added, when the row is shown. */
  private refreshGrown(row: HTMLElement): void {
    const index = this.itemOf.get(row);
    const item = index === undefined ? undefined : this.items[index];
    if (!item || row.dataset.built !== '1' || !this.near(row) || this.dirty.has(row)) {
      this.refresh(row);
      return;
    }
    const added = this.added.get(row) ?? '';
    this.added.delete(row);
    if (!this.renderer.grow(row, item, added)) {
      this.growing.add(row);
      this.scheduleGrowth();
    }
  }

  private build(row: HTMLElement): void {
    const index = this.itemOf.get(row);
    const item = index === undefined ? undefined : this.items[index];
    if (!item) return;
    this.dirty.delete(row);
    this.added.delete(row);
    const done = this.renderer.render(row, item);
    row.dataset.built = '1';
    // Nothing waits for this row now: no need to watch it (see `observer`).
    this.observer.unobserve(row);
    if (!done) {
      this.growing.add(row);
      this.scheduleGrowth();
    }
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const row = entry.target as HTMLElement;
      row.dataset.visible = entry.isIntersecting ? '1' : '0';
      if (entry.isIntersecting && (row.dataset.built !== '1' || this.dirty.has(row))) this.queue.add(row);
      else this.queue.delete(row);
      if (row.dataset.built === '1' && !this.dirty.has(row)) this.observer.unobserve(row);
    }
    this.buildQueued();
  }

  /**
   * Builds queued rows until the frame's budget is spent, the rest in later frames: a fast
   * scroll over thousands of rows never blocks a frame for long (rows fill in a frame or two late).
   */
  private buildQueued(): void {
    const started = performance.now();
    for (const row of this.queue) {
      if (performance.now() - started > FRAME_BUDGET_MS) break;
      this.queue.delete(row);
      if (row.dataset.visible === '1') this.build(row);
    }
    if (this.queue.size > 0 && !this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame(() => {
        this.frameRequested = false;
        this.buildQueued();
      });
    }
  }
}
