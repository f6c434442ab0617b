import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import { CADENCES, LagController, type Cadence, type LagLevel } from './model/lagController';
import { ResponseLag } from './model/responseLag';

/** The signals are read this often while the window has work. */
const SAMPLE_EVERY_MS = 100;
/** Sampling stops once the level is normal and nothing was sent the window for this long. */
const IDLE_AFTER_MS = 2000;
/** `monitorEventLoopDelay`'s resolution (ms): its own timer; 10 ms costs the host nothing measurable. */
const LOOP_RESOLUTION_MS = 10;

/** What the window has shown, for tests and the benchmark (times are `performance.now()` of the host). */
export interface WindowShown {
  readonly level: LagLevel;
  /** Changes of level so far, and the time spent off the normal cadence (ms). */
  readonly levelChanges: number;
  readonly behindMs: number;
  /** The last listing of a session's calls VS Code asked for: how many calls it had, and when it first listed that many. */
  readonly tree?: { readonly sessionId: string; readonly calls: number; readonly at: number };
  /** The last chat patch the webview acknowledged as drawn: the list length it brought, and when that length was first drawn. */
  readonly chat?: { readonly length: number; readonly at: number };
  /** The list length of the last chat patch posted. */
  readonly chatPosted?: number;
  /** When the webview last acknowledged every patch posted (a streamed text drawn to its end). */
  readonly chatDrawnAt?: number;
}

/**
 * The feedback loop on the window's lag (the adapter of `model/lagController.ts`): the chat tells
 * it when a patch went and when the webview acknowledged it, the Tool Calls tree when it refreshed
 * and when VS Code asked for the children; it watches the host's own event-loop delay. While any
 * renderer has work it samples them and gives the renderers their cadence; `onDidChange` fires
 * when the level changes (a renderer waiting on a long timer takes the shorter one at once).
 *
 * `acpNative.performance.adaptToWindowLag: false` keeps the normal cadence (the benchmark's baseline).
 */
export class WindowPacing extends Disposable {
  private readonly controller = new LagController();
  readonly chat = new ResponseLag();
  readonly tree = new ResponseLag();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<Cadence>());
  readonly onDidChange = this.changeEmitter.event;
  private loop: IntervalHistogram | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastActivity = 0;
  private enabled: boolean;
  private levelChanges = 0;
  private behindMs = 0;
  private behindSince: number | undefined;
  private shownTree: WindowShown['tree'];
  private shownChat: WindowShown['chat'];
  private chatPosted: number | undefined;
  private chatLastSeq = 0;
  private chatDrawnAt: number | undefined;

  constructor(settings: { adaptToWindowLag(): boolean }) {
    super();
    this.enabled = settings.adaptToWindowLag();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration('acpNative.performance.adaptToWindowLag')) return;
        this.enabled = settings.adaptToWindowLag();
        if (!this.enabled) {
          this.stopSampling();
          this.setLevel(() => this.controller.reset());
        }
      }),
    );
    this._register({ dispose: () => this.stopSampling() });
  }

  get cadence(): Cadence {
    return this.enabled ? this.controller.cadence : CADENCES.normal;
  }

  get behind(): boolean {
    return this.cadence.level !== 'normal';
  }

  /** A renderer sent the window something: sampling runs while it has work. */
  activity(): void {
    this.lastActivity = performance.now();
    if (this.enabled && !this.timer) this.startSampling();
  }

  /**
   * A chat patch bringing the list to `length` items was posted; returns the number its
   * acknowledgement names. A patch of text only (`onlyText`) is not timed: the lag is the rows'.
   */
  chatSent(length: number, textOnly = false): number {
    this.activity();
    this.chatPosted = length;
    this.chatLastSeq = this.chat.sent(performance.now(), !textOnly);
    return this.chatLastSeq;
  }

  chatAcknowledged(seq: number, length: number | undefined): void {
    const now = performance.now();
    this.chat.answered(seq, now);
    if (seq >= this.chatLastSeq) this.chatDrawnAt = now;
    if (length !== undefined && length !== this.shownChat?.length) this.shownChat = { length, at: now };
  }

  /** The webview started over or was hidden: nothing it was sent is waited for. */
  chatReset(): void {
    this.chat.forget();
    this.shownChat = undefined;
    this.chatPosted = undefined;
  }

  treeRefreshed(): void {
    this.activity();
    this.tree.sent(performance.now());
  }

  /** VS Code asked for a tree node's children (the window draws the refresh); `calls`: a session's listing. */
  treeFetched(listing?: { sessionId: string; calls: number }): void {
    const now = performance.now();
    this.tree.answered(Infinity, now);
    const shown = this.shownTree;
    if (listing && (shown?.sessionId !== listing.sessionId || shown.calls !== listing.calls)) this.shownTree = { ...listing, at: now };
  }

  /** The Tool Calls view was hidden: VS Code will not ask until it shows again. */
  treeHidden(): void {
    this.tree.forget();
  }

  shown(): WindowShown {
    const now = performance.now();
    return {
      level: this.cadence.level,
      levelChanges: this.levelChanges,
      behindMs: this.behindMs + (this.behindSince !== undefined ? now - this.behindSince : 0),
      ...(this.shownTree ? { tree: this.shownTree } : {}),
      ...(this.shownChat ? { chat: this.shownChat } : {}),
      ...(this.chatPosted !== undefined ? { chatPosted: this.chatPosted } : {}),
      ...(this.chatDrawnAt !== undefined ? { chatDrawnAt: this.chatDrawnAt } : {}),
    };
  }

  private startSampling(): void {
    this.loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.loop.enable();
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  private stopSampling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.loop?.disable();
    this.loop = undefined;
  }

  private sample(): void {
    if (!this.enabled) return this.stopSampling();
    const now = performance.now();
    const loop = this.loop;
    // The histogram holds the delays past its own resolution's timer, in ns; the sample's worst is the signal.
    const loopMs = loop && loop.count > 0 ? Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS) : 0;
    loop?.reset();
    this.setLevel(() => this.controller.update({ chatMs: this.chat.lagAt(now), treeMs: this.tree.lagAt(now), loopMs }, now));
    if (this.controller.level === 'normal' && now - this.lastActivity > IDLE_AFTER_MS) this.stopSampling();
  }

  private setLevel(change: () => void): void {
    const before = this.controller.level;
    change();
    const after = this.controller.level;
    if (after === before) return;
    const now = performance.now();
    this.levelChanges++;
    if (before === 'normal') this.behindSince = now;
    if (after === 'normal' && this.behindSince !== undefined) {
      this.behindMs += now - this.behindSince;
      this.behindSince = undefined;
    }
    this.changeEmitter.fire(this.cadence);
  }
}
