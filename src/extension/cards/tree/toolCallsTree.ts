import * as vscode from 'vscode';
import { CALLS_PER_GROUP, callChildren, callGroupNode, callLayout, callParent, callNode, reviewFileNode, reviewNode, sessionNode, type TreeNode } from './model/treeModel';
import type { ActionLogCapture } from '../../review/actionLogCapture';
import { summaryText, type FileChangeView } from '../../review/model/actionLog';
import type { ToolCallState } from '../../session/model/toolCalls';
import type { AgentSessions, SessionRecord } from '../../session/agentSessions';
import { Disposable } from '../../base/lifecycle';
import type { Probes } from '../../base/probes';
import { titleContext } from '../../workspace/titles';
import type { TitleContext } from '../../workspace/model/displayTitle';
import { PendingRefresh, refreshDelay, sessionListChange, type SessionShown } from './model/treeRefresh';
import type { WindowPacing } from '../../pacing/windowPacing';
import { catchingUpText } from '../../pacing/model/lagController';
import { callGroupItem, callItem, callTooltip, locationItem, rawInputItem, reviewFileItem, reviewItem, sessionItem, subagentItem, textItem } from './treeItems';

export const TOOL_CALLS_VIEW_ID = 'acpNative.toolCalls';

/**
 * The Tool Calls view: sessions at the top, their tool calls in order beneath, each with its
 * text, locations and raw input. Refreshes are coalesced, name only the nodes that changed, and
 * come less often when they cost more; the newest call is revealed.
 */
export class ToolCallsTree extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  readonly view: vscode.TreeView<TreeNode>;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** While the window is behind, the view's description counts the calls (every 250 ms). */
  private progressTimer: NodeJS.Timeout | undefined;
  private readonly pending = new PendingRefresh();
  /** The session whose newest call changed since the last refresh: the view follows it. */
  private follow: string | undefined;
  /** The call being revealed to follow the agent (one at a time), and the session to follow once it is. */
  private following: TreeNode | undefined;
  private followNext: string | undefined;
  /** The sessions as last listed, to tell a new or closed session from a busy one. */
  private shownSessions: SessionShown[] = [];
  /** Per session: the review turns as last listed, to tell a new turn from a changed one. */
  private readonly shownTurns = new Map<string, string>();
  /** Sessions whose action log changed since the last refresh. */
  private readonly logChanged = new Set<string>();
  /**
   * Extension-host time of the refresh in progress and of the last one (ms): the tree's own code
   * and VS Code converting and sending the items, up to the end of the event-loop turn.
   */
  private refreshCost = { current: 0, last: 0, measuring: false };
  /** When the tree last told VS Code of a change (`performance.now()`): refreshes keep VS Code's debounce apart. */
  private lastFiredAt = Number.NEGATIVE_INFINITY;
  /**
   * One node object per session and per call. VS Code's tree view finds an element's node by object
   * identity: a fresh object for a known node (from `getParent`, or the revealed call) misses, and
   * `reveal` then re-fetches every sibling — all of a session's calls — on each refresh; a refresh
   * of a node VS Code does not know by identity does nothing.
   */
  private readonly nodes = new Map<
    string,
    { session: TreeNode; calls: Map<string, TreeNode>; groups: Map<number, TreeNode>; reviews: Map<number, TreeNode> }
  >();
  /**
   * A call's TreeItem while the call (its `revision`) and the workspace folders (which shape its
   * title) stay the same: a refresh lists up to `CALLS_PER_GROUP` calls of which a few changed.
   */
  private readonly callItems = new WeakMap<ToolCallState, { revision: number; titles: TitleContext; item: vscode.TreeItem }>();

  constructor(
    private readonly sessions: AgentSessions,
    private readonly actionLog: ActionLogCapture,
    /** Refreshes and items served and built, for the benchmark. */
    private readonly probes?: Probes,
    /** The window's lag: how far apart refreshes go, and when VS Code asked for what they changed. */
    private readonly pacing?: WindowPacing,
  ) {
    super();
    this._register(
      actionLog.onDidChange((sessionId) => {
        // What changed is read once per refresh: the log fires for every file a call touches, and
        // listing a session's turns walks all its changes (quadratic over a storm of edits).
        this.logChanged.add(sessionId);
        this.scheduleRefresh();
      }),
    );
    this.view = this._register(vscode.window.createTreeView(TOOL_CALLS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    this._register(
      sessions.onDidChangeSessions(() => {
        for (const id of this.nodes.keys()) if (!sessions.session(id)) this.nodes.delete(id);
        for (const id of this.shownTurns.keys()) if (!sessions.session(id)) this.shownTurns.delete(id);
        const shown = sessions.all.map((s) => ({ id: s.state.sessionId, busy: s.busy }));
        const change = sessionListChange(this.shownSessions, shown);
        this.shownSessions = shown;
        if (change.root) this.pending.everything();
        for (const id of change.changed) this.pending.session(id);
        // A turn ended while the window is behind: its last calls are drawn now, not up to 2 s later.
        const turnEnded = change.changed.some((id) => !sessions.session(id)?.busy);
        if (turnEnded && this.pacing?.behind && this.refreshTimer) {
          clearTimeout(this.refreshTimer);
          this.refreshTimer = setTimeout(() => this.refresh(), refreshDelay(this.refreshCost.last, performance.now() - this.lastFiredAt));
        } else if (!this.pending.empty) this.scheduleRefresh();
      }),
    );
    this._register(
      sessions.onDidChangeSession(({ session, changes }) => {
        const sessionId = session.state.sessionId;
        // A subagent's state (running, needs you, idle) shows on its node.
        if (changes.subagents) {
          for (const child of sessions.childrenOf(sessionId)) this.pending.session(child.state.sessionId);
          this.pending.session(sessionId);
          this.scheduleRefresh();
        }
        if (changes.toolCalls.size === 0 && !changes.info) return;
        // New calls change the session's children (and its count); others redraw only their own node.
        if (changes.newToolCalls.size > 0 || changes.info) this.pending.session(sessionId);
        else for (const id of changes.toolCalls) this.pending.call(sessionId, id);
        const newest = session.state.toolCalls().at(-1);
        if (newest && changes.toolCalls.has(newest.id)) this.follow = sessionId;
        this.scheduleRefresh();
      }),
    );
    if (pacing) {
      this._register(pacing.onDidChange(() => this.cadenceChanged()));
      this._register(this.view.onDidChangeVisibility(() => (this.view.visible ? undefined : pacing.treeHidden())));
    }
    this._register({ dispose: () => (clearTimeout(this.refreshTimer), clearInterval(this.progressTimer)) });
  }

  getChildren(node?: TreeNode): TreeNode[] {
    this.measureRefresh();
    const children = this.children(node);
    if (this.pacing) {
      const calls = node?.type === 'session' ? this.sessions.session(node.sessionId)?.state.toolCalls().length : undefined;
      this.pacing.treeFetched(node?.type === 'session' && calls !== undefined ? { sessionId: node.sessionId, calls } : undefined);
    }
    return children;
  }

  /**
   * The window fell behind or caught up: the count shows or goes, and a refresh waiting on the
   * slower cadence is timed again on the new one.
   */
  private cadenceChanged(): void {
    const pacing = this.pacing;
    if (!pacing) return;
    if (pacing.behind) {
      this.showProgress();
      this.progressTimer ??= setInterval(() => this.showProgress(), 250);
    } else {
      clearInterval(this.progressTimer);
      this.progressTimer = undefined;
      this.showProgress();
      if (this.refreshTimer) {
        clearTimeout(this.refreshTimer);
        this.refreshTimer = undefined;
        this.scheduleRefresh();
      }
    }
  }

  /** "4,812 calls, showing the newest" beside the view's title while the window catches up (the newest session's count). */
  private showProgress(): void {
    const session = this.sessions.active ?? this.sessions.topLevel.at(-1);
    const calls = session?.state.toolCalls().length ?? 0;
    const text = this.pacing?.behind && calls > 0 ? catchingUpText(calls) : undefined;
    if (this.view.description !== text) this.view.description = text;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    this.measureRefresh();
    this.pacing?.treeFetched();
    this.probes?.count('tree.itemsServed');
    return this.item(node);
  }

  /** The children of a node, as `getChildren` gives them to VS Code (the API's snapshot reads them too). */
  children(node?: TreeNode): TreeNode[] {
    if (!node) return this.sessions.topLevel.map((s) => this.sessionNodeOf(s.state.sessionId));
    if (node.type === 'session') {
      const state = this.sessions.session(node.sessionId)?.state;
      if (!state) return [];
      // Its subagents, each under the call that spawned it when the session has that call, else here.
      const subagents = this.subagentNodes(node.sessionId, undefined);
      const all = state.toolCalls();
      // A long session's older calls fold into groups: a refresh must not re-fetch thousands of rows.
      const { groups, firstListed } = callLayout(all.length);
      const folded = Array.from({ length: groups }, (_, group) => this.callGroupNodeOf(node.sessionId, group));
      const calls = all.slice(firstListed).map((call) => this.callNodeOf(node.sessionId, call.id));
      // The turns that changed files, newest first, above the calls.
      const turns = this.actionLog.log.turns(node.sessionId);
      this.shownTurns.set(node.sessionId, turnsKey(turns));
      return [...[...turns].reverse().map((turn) => this.reviewNodeOf(node.sessionId, turn)), ...subagents, ...folded, ...calls];
    }
    if (node.type === 'callGroup') {
      const calls = this.sessions.session(node.sessionId)?.state.toolCalls() ?? [];
      const first = node.group * CALLS_PER_GROUP;
      return calls.slice(first, first + CALLS_PER_GROUP).map((call) => this.callNodeOf(node.sessionId, call.id));
    }
    if (node.type === 'review') {
      // Grouped by who made them: the session's own changes first, then each subagent's.
      const views = [...this.turnViews(node.sessionId, node.turn)].sort((a, b) => (a.change.madeBy ?? '').localeCompare(b.change.madeBy ?? ''));
      return views.map((v) => reviewFileNode(node.sessionId, node.turn, v.change.id, v.change.path));
    }
    if (node.type === 'call') {
      const call = this.call(node);
      return call ? [...callChildren(node.sessionId, call), ...this.subagentNodes(node.sessionId, call.id)] : [];
    }
    return [];
  }

  /**
   * The session nodes of a session's subagents: with `toolCallId`, those that call spawned; without,
   * those whose spawning call is not among the session's calls (Claude's adapter sends none).
   */
  private subagentNodes(sessionId: string, toolCallId: string | undefined): TreeNode[] {
    const parent = this.sessions.session(sessionId);
    if (!parent || parent.state.subagents.length === 0) return [];
    const nodes: TreeNode[] = [];
    for (const child of this.sessions.childrenOf(sessionId)) {
      const spawnedBy = this.spawningCall(parent, child);
      if (spawnedBy === toolCallId) nodes.push(this.sessionNodeOf(child.state.sessionId));
    }
    return nodes;
  }

  /** The parent's call a subagent hangs under, if the parent has that call. */
  private spawningCall(parent: SessionRecord, child: SessionRecord): string | undefined {
    const childId = child.parent?.childId;
    const id = (childId && parent.state.subagent(childId)?.parentToolCallId) ?? child.state.spawnedBy;
    return id && parent.state.toolCall(id) ? id : undefined;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    if (node.type === 'session') {
      // A subagent's session hangs under its parent (or the parent's spawning call).
      const child = this.sessions.session(node.sessionId);
      const parent = child?.parent ? this.sessions.session(child.parent.sessionId) : undefined;
      if (!child || !parent) return undefined;
      const call = this.spawningCall(parent, child);
      return call ? this.callNodeOf(parent.state.sessionId, call) : this.sessionNodeOf(parent.state.sessionId);
    }
    // A closed session's nodes have no parent: VS Code must not be sent looking for the session
    // among the root's children (it logs "Cannot resolve tree item"; see cards/tree/model/treeModel.ts `callParent`).
    const state = this.sessions.session(node.sessionId)?.state;
    if (!state) return undefined;
    switch (node.type) {
      case 'call': {
        const order = state.toolCall(node.toolCallId)?.order;
        const parent = callParent(order !== undefined ? { order, count: state.toolCalls().length } : undefined, node === this.following);
        if (!parent) return undefined;
        return parent.type === 'session' ? this.sessionNodeOf(node.sessionId) : this.callGroupNodeOf(node.sessionId, parent.group);
      }
      case 'callGroup':
      case 'review':
        return this.sessionNodeOf(node.sessionId);
      case 'text':
      case 'location':
      case 'rawInput':
        return this.callNodeOf(node.sessionId, node.toolCallId);
      case 'reviewFile':
        return this.reviewNodeOf(node.sessionId, node.turn);
    }
  }

  /**
   * The tooltip of a call, on hover only: a `MarkdownString` set in `getTreeItem` is parsed by the
   * extension host (markdown lexing) for every call on every refresh, which costs about as much as
   * building the rest of the item.
   */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node.type !== 'call' || item.tooltip !== undefined) return item;
    const call = this.call(node);
    if (call) {
      item.tooltip = callTooltip(call);
    }
    return item;
  }

  /** A node's TreeItem, as `getTreeItem` gives it to VS Code. */
  item(node: TreeNode): vscode.TreeItem {
    switch (node.type) {
      case 'session': {
        const record = this.sessions.session(node.sessionId);
        const parent = record?.parent;
        const subagent = parent && this.sessions.session(parent.sessionId)?.state.subagent(parent.childId);
        return subagent ? subagentItem(node, record, subagent) : sessionItem(node, record);
      }
      case 'call':
        return this.callItem(node);
      case 'callGroup':
        return callGroupItem(node);
      case 'text':
        return textItem(node);
      case 'location':
        return locationItem(node);
      case 'review':
      {
        const views = this.turnViews(node.sessionId, node.turn);
        const summary = summaryText(this.actionLog.summary(node.sessionId, node.turn));
        // With subagents' changes: what each of them changed, after the turn's total.
        const bySubagent = views.some((v) => v.change.madeBy !== undefined) ? this.actionLog.turnChanges(node.sessionId)(node.turn) : undefined;
        return reviewItem(node, views, bySubagent || summary);
      }
      case 'reviewFile':
      {
        const view = this.turnViews(node.sessionId, node.turn).find((v) => v.change.id === node.changeId);
        const item = reviewFileItem(node, view);
        // A subagent's change says whose it is (Review per subagent).
        const by = view?.change.madeBy;
        if (by !== undefined) item.description = `${String(item.description ?? '')} · ${this.actionLog.subagentName(by)} (subagent)`;
        return item;
      }
      case 'rawInput':
        return rawInputItem(node);
    }
  }

  /** Shows a call's node in the view, selected and focused. */
  async revealCall(sessionId: string, toolCallId: string): Promise<void> {
    if (!this.call({ sessionId, toolCallId })) return;
    // A refresh still waiting may be the one that lists this call: VS Code must have it first, or it
    // looks for the call among the children it fetched before and fails ("Cannot resolve tree item").
    if (this.refreshTimer) {
      clearTimeout(this.refreshTimer);
      this.refresh();
    }
    // The view finds nodes by identity: reveal this tree's own node object.
    await this.view.reveal(this.callNodeOf(sessionId, toolCallId), { select: true, focus: true, expand: true });
  }

  private turnViews(sessionId: string, turn: number): FileChangeView[] {
    return this.actionLog.views(sessionId).filter((v) => v.change.turn === turn);
  }

  private callItem(node: Extract<TreeNode, { type: 'call' }>): vscode.TreeItem {
    const call = this.call(node);
    if (!call) return new vscode.TreeItem('(gone)');
    const cached = this.callItems.get(call);
    const titles = titleContext();
    if (cached && cached.revision === call.revision && cached.titles === titles) return cached.item;
    const item = callItem(node, call, titles);
    // A call that spawned a subagent opens onto it.
    if (item.collapsibleState === vscode.TreeItemCollapsibleState.None && this.subagentNodes(node.sessionId, call.id).length > 0) {
      item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    }
    this.probes?.count('tree.itemsBuilt');
    this.callItems.set(call, { revision: call.revision, titles, item });
    return item;
  }

  private sessionNodes(sessionId: string): { session: TreeNode; calls: Map<string, TreeNode>; groups: Map<number, TreeNode>; reviews: Map<number, TreeNode> } {
    let entry = this.nodes.get(sessionId);
    if (!entry) {
      entry = { session: sessionNode(sessionId), calls: new Map(), groups: new Map(), reviews: new Map() };
      this.nodes.set(sessionId, entry);
    }
    return entry;
  }

  private sessionNodeOf(sessionId: string): TreeNode {
    return this.sessionNodes(sessionId).session;
  }

  private callNodeOf(sessionId: string, toolCallId: string): TreeNode {
    const calls = this.sessionNodes(sessionId).calls;
    let node = calls.get(toolCallId);
    if (!node) {
      node = callNode(sessionId, toolCallId);
      calls.set(toolCallId, node);
    }
    return node;
  }

  private reviewNodeOf(sessionId: string, turn: number): TreeNode {
    const reviews = this.sessionNodes(sessionId).reviews;
    let node = reviews.get(turn);
    if (!node) {
      node = reviewNode(sessionId, turn);
      reviews.set(turn, node);
    }
    return node;
  }

  private callGroupNodeOf(sessionId: string, group: number): TreeNode {
    const groups = this.sessionNodes(sessionId).groups;
    let node = groups.get(group);
    if (!node) {
      node = callGroupNode(sessionId, group);
      groups.set(group, node);
    }
    return node;
  }

  private call(node: { sessionId: string; toolCallId: string }): ToolCallState | undefined {
    return this.sessions.session(node.sessionId)?.state.toolCall(node.toolCallId);
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    const since = performance.now() - this.lastFiredAt;
    // While the window is behind, refreshes are further apart (each still names all that changed).
    const paced = this.pacing ? Math.ceil(this.pacing.cadence.treeRefreshMs - since) : 0;
    this.refreshTimer = setTimeout(() => this.refresh(), Math.max(paced, refreshDelay(this.refreshCost.last, since)));
  }

  /** The tree told VS Code of a change: the window's answer (asking for the children) is timed. */
  private fired(): void {
    this.lastFiredAt = performance.now();
    if (this.view.visible) this.pacing?.treeRefreshed();
  }

  private refresh(): void {
    this.refreshTimer = undefined;
    this.probes?.count('tree.refreshes');
    this.refreshCost.current = 0;
    for (const sessionId of this.logChanged) {
      const turns = this.shownTurns.get(sessionId);
      // A new turn adds a node under the session; a changed turn redraws its own node.
      if (turns === undefined || turns !== turnsKey(this.actionLog.log.turns(sessionId))) this.pending.session(sessionId);
      else this.pending.review(sessionId);
    }
    this.logChanged.clear();
    const targets = this.pending.take();
    if (targets.root) {
      this.fired();
      this.changeEmitter.fire(undefined);
    } else {
      const known = (sessionId: string) => this.nodes.has(sessionId) && this.sessions.session(sessionId);
      const changed: TreeNode[] = [
        ...targets.sessions.filter(known).map((id) => this.sessionNodeOf(id)),
        ...targets.calls.filter((c) => known(c.sessionId)).map((c) => this.callNodeOf(c.sessionId, c.toolCallId)),
        ...targets.reviews.filter(known).flatMap((id) => [...this.sessionNodes(id).reviews.values()]),
      ];
      if (changed.length > 0) {
        this.fired();
        this.changeEmitter.fire(changed);
      }
    }
    const follow = this.follow;
    this.follow = undefined;
    if (follow && this.view.visible) this.revealNewest(follow);
  }

  /**
   * Follows the agent: reveals the session's newest call, which is always listed under the session.
   * One reveal at a time, the newest target once it settles: VS Code runs a reveal only after the
   * refreshes before it reached the view, and while a storm keeps the workbench busy, reveals asked
   * on every refresh piled up and then ran at once, each for a call that had meanwhile folded into a
   * group, fetching and opening that group: one block of 300–750 ms at the end of the storm.
   */
  private revealNewest(sessionId: string): void {
    if (this.following) {
      this.followNext = sessionId;
      return;
    }
    const newest = this.sessions.session(sessionId)?.state.toolCalls().at(-1);
    if (!newest) return;
    const node = this.callNodeOf(sessionId, newest.id);
    this.following = node;
    const done = () => {
      this.following = undefined;
      const next = this.followNext;
      this.followNext = undefined;
      if (next && this.view.visible) this.revealNewest(next);
    };
    this.view.reveal(node, { select: false, focus: false, expand: false }).then(done, done);
  }

  /**
   * Adds the extension-host time of this event-loop turn to the refresh's cost, once per turn: VS
   * Code asks for children and items, converts and sends them in the same turn.
   */
  private measureRefresh(): void {
    const cost = this.refreshCost;
    if (cost.measuring) return;
    cost.measuring = true;
    const start = performance.now();
    setImmediate(() => {
      cost.measuring = false;
      cost.current += performance.now() - start;
      cost.last = cost.current;
    });
  }
}

/** The review turns of a session as a comparable key. */
function turnsKey(turns: readonly number[]): string {
  return turns.join(',');
}
