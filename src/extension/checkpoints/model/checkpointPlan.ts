/**
 * What the checkpoints mean (pure): a checkpoint of the whole workspace is taken when a prompt is
 * sent (`begin`) and when its turn ends (`end`). What changed between a turn's begin and end is
 * the turn's doing, by whatever means (a tool call, a command, a formatter); what changed between
 * one turn's end and the next one's begin is the user's. Restoring to before a prompt puts back
 * every file the turns since changed, and leaves alone the files the user changed since.
 */
import type { FileStatus } from './shadowGit';

export type Phase = 'begin' | 'end';

export interface CheckpointRecord {
  /** Unique; the shadow repositories' ref is `refs/acp/<id>`. */
  readonly id: string;
  readonly sessionId: string;
  /** The index of the turn's user message in the session. */
  readonly turn: number;
  readonly phase: Phase;
  /** Milliseconds since the epoch. */
  readonly time: number;
  /** Per workspace folder (its path): the commit holding the folder then. A folder it failed for has none. */
  readonly commits: Readonly<Record<string, string>>;
  /** Per workspace folder: the files over the size limit, listed and not stored. */
  readonly tooLarge: Readonly<Record<string, readonly string[]>>;
  /** Why a folder was skipped (too slow, git failed). */
  readonly skipped?: Readonly<Record<string, string>>;
}

/** A pair of moments whose difference is diffed: a checkpoint's id, or the workspace now. */
export type Moment = string | 'now';
export interface Interval {
  readonly from: Moment;
  readonly to: Moment;
}

/**
 * The intervals to diff for a restore to before `turn`: the turns' own (agent) and the gaps
 * between them (user). Undefined when the prompt's begin checkpoint is missing (no whole-workspace
 * restore then). A turn whose end checkpoint is missing counts as the agent's until the next begin:
 * without it, the user's edits in that gap cannot be told from the agent's.
 */
export function restoreIntervals(records: readonly CheckpointRecord[], sessionId: string, turn: number): { base: string; agent: Interval[]; user: Interval[] } | undefined {
  const mine = records.filter((r) => r.sessionId === sessionId && r.turn >= turn).sort((a, b) => a.turn - b.turn || phaseOrder(a.phase) - phaseOrder(b.phase) || a.time - b.time);
  const base = mine.filter((r) => r.turn === turn && r.phase === 'begin').at(-1);
  if (!base) return undefined;
  const agent: Interval[] = [];
  const user: Interval[] = [];
  let open: string | undefined;
  let lastEnd: string | undefined;
  for (const r of mine) {
    if (r.phase === 'begin') {
      if (lastEnd !== undefined) user.push({ from: lastEnd, to: r.id });
      else if (open !== undefined) agent.push({ from: open, to: r.id });
      open = r.id;
      lastEnd = undefined;
    } else if (open !== undefined) {
      agent.push({ from: open, to: r.id });
      open = undefined;
      lastEnd = r.id;
    }
  }
  if (open !== undefined) agent.push({ from: open, to: 'now' });
  if (lastEnd !== undefined) user.push({ from: lastEnd, to: 'now' });
  return { base: base.id, agent, user };
}

function phaseOrder(phase: Phase): number {
  return phase === 'begin' ? 0 : 1;
}

export type RestoreStep =
  /** Write the file's bytes as they were at the base checkpoint. */
  | { readonly path: string; readonly action: 'write' }
  /** The file did not exist at the base checkpoint: delete it. */
  | { readonly path: string; readonly action: 'delete' };

export interface WorkspaceRestorePlan {
  readonly steps: RestoreStep[];
  /** Changed by the turns and by the user since: left alone. */
  readonly conflicts: string[];
  /** Every file the user changed since (between turns, or after the last): no other undo may touch them either. */
  readonly userChanged: string[];
}

/**
 * What a restore does in one folder. `sinceBase`: base → now; `agent` and `user`: the diffs of the
 * intervals of `restoreIntervals`; `skip`: paths another undo handles (the action log's), or files
 * with unsaved text in an editor (reported as conflicts by the caller). A file the user changed
 * since is a conflict even when skipped: the other undo must leave it alone too. `tooLargeAtBase`: files the
 * base did not store (they cannot be put back, nor deleted as if new).
 */
export function planWorkspaceRestore(input: {
  sinceBase: ReadonlyMap<string, FileStatus>;
  agent: readonly ReadonlyMap<string, FileStatus>[];
  user: readonly ReadonlyMap<string, FileStatus>[];
  skip: ReadonlySet<string>;
  tooLargeAtBase: ReadonlySet<string>;
}): WorkspaceRestorePlan {
  const byAgent = new Set(input.agent.flatMap((d) => [...d.keys()]));
  const byUser = new Set(input.user.flatMap((d) => [...d.keys()]));
  const steps: RestoreStep[] = [];
  const conflicts: string[] = [];
  for (const [path, status] of [...input.sinceBase].sort(([a], [b]) => a.localeCompare(b))) {
    if (!byAgent.has(path)) continue;
    // Before the skip: a file the user changed since is theirs, whoever else would undo it.
    if (byUser.has(path)) {
      conflicts.push(path);
      continue;
    }
    if (input.skip.has(path) || input.tooLargeAtBase.has(path)) continue;
    steps.push({ path, action: status === 'added' ? 'delete' : 'write' });
  }
  return { steps, conflicts, userChanged: [...byUser].sort() };
}

export interface PruneLimits {
  readonly maxAgeMs: number;
  readonly maxCount: number;
  /** The shadow repositories' size on disk above which the oldest checkpoints go. */
  readonly maxBytes: number;
}

/**
 * The checkpoints to drop: older than the age limit, beyond the count limit (oldest first), and,
 * when the repositories are over their size limit, the oldest quarter more. A session's newest
 * checkpoint is kept whatever its age (the running conversation can always go back one prompt).
 */
export function checkpointsToPrune(records: readonly CheckpointRecord[], now: number, limits: PruneLimits, sizeBytes: number): Set<string> {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  const newestOfSession = new Map<string, string>();
  for (const r of sorted) newestOfSession.set(r.sessionId, r.id);
  const keep = new Set(newestOfSession.values());
  const drop = new Set<string>();
  for (const r of sorted) if (now - r.time > limits.maxAgeMs && !keep.has(r.id)) drop.add(r.id);
  const left = sorted.filter((r) => !drop.has(r.id) && !keep.has(r.id));
  let over = sorted.length - drop.size - limits.maxCount;
  if (sizeBytes > limits.maxBytes) over = Math.max(over, Math.ceil(left.length / 4));
  for (const r of left) {
    if (over <= 0) break;
    drop.add(r.id);
    over--;
  }
  return drop;
}

/** The API's view of a session's checkpoints: one per prompt whose begin checkpoint exists, with the files the turns since changed. */
export function promptCheckpoints(records: readonly CheckpointRecord[], sessionId: string): { turn: number; id: string }[] {
  return records
    .filter((r) => r.sessionId === sessionId && r.phase === 'begin')
    .sort((a, b) => a.turn - b.turn)
    .map((r) => ({ turn: r.turn, id: r.id }));
}
