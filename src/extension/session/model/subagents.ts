import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { SessionMessage, SessionMessageChunk, SubagentUpdate } from '@agentclientprotocol/sdk/unstable';

/** The subagent operations (`/unstable` in SDK 2.4; read whether or not the client advertised `subagents`). */
export type SubagentOperation =
  | (SubagentUpdate & { sessionUpdate: 'subagent_update' })
  | (SessionMessage & { sessionUpdate: 'session_message' })
  | (SessionMessageChunk & { sessionUpdate: 'session_message_chunk' });

/** What a child is doing, as its parent last said (`state` of `subagent_update`). */
export type SubagentActivity = 'running' | 'requires_action' | 'idle' | 'unknown' | 'unset';

/** A prompt or a report is shown up to this many characters (the child's own transcript has all of it). */
export const MAX_SUBAGENT_MESSAGE_CHARS = 20_000;

/** One child session of a session, as its parent announced it. */
export interface SubagentRecord {
  /** The child's session id as the agent names it. */
  readonly childId: string;
  title: string | undefined;
  description: string | undefined;
  /** The child may be cancelled on its own (`capabilities.cancel`). */
  cancellable: boolean;
  activity: SubagentActivity;
  /** With `idle`: why it stopped (`end_turn`, `cancelled`…). */
  stopReason: string | undefined;
  cwd: string | undefined;
  additionalDirectories: readonly string[] | undefined;
  /** The parent's tool call that spawned it (Claude: the Agent tool-use id), once known. */
  parentToolCallId: string | undefined;
  /** The message the parent gave it (`session_message` to the child). */
  prompt: string | undefined;
  /** Its hand-back to the parent (`session_message` from the child), without the tools line. */
  report: string | undefined;
  /** The tools the child says it used (Claude's `<tools-used-before-summary>`). */
  toolsUsed: string | undefined;
  /** Still working after its parent's turn ended (or the agent said it runs in the background). */
  background: boolean;
  /** Its id collides with another open session: shown, never merged into that one. */
  collision: string | undefined;
  /** Moves whenever anything above changes. */
  revision: number;
}

/** Where a child appears in its parent's conversation. */
export interface SubagentEntry {
  readonly type: 'subagent';
  readonly subagent: SubagentRecord;
}

export interface SubagentApplied {
  readonly record: SubagentRecord;
  readonly created: boolean;
}

const TOOLS_USED = /^\s*<tools-used-before-summary>([\s\S]*?)<\/tools-used-before-summary>\s*/;
/** Claude's hand-back of a child it put in the background: launch metadata, not the report. */
const BACKGROUND_LAUNCH = /^Async agent launched successfully/i;
/** The stop reason of a child whose agent exited while it ran (no stop reason of the protocol's). */
export const AGENT_EXITED = 'agent exited';

/**
 * The children a session announced (pure): `subagent_update` patches (omitted = unchanged, `null`
 * = cleared), the prompt and the report from the linked `session_message`s, and whether a child
 * outlived its parent's turn. The child sessions themselves (their calls, text, questions) are
 * sessions of their own; this is what the parent knows of them.
 */
export class SubagentStore {
  private readonly byId = new Map<string, SubagentRecord>();
  /** Message ids (on the parent) → the child they are the prompt or the report of. */
  private readonly messages = new Map<string, { childId: string; part: 'prompt' | 'report' }>();

  all(): readonly SubagentRecord[] {
    return [...this.byId.values()];
  }

  get(childId: string): SubagentRecord | undefined {
    return this.byId.get(childId);
  }

  get size(): number {
    return this.byId.size;
  }

  apply(update: SubagentUpdate): SubagentApplied {
    if (typeof update.sessionId !== 'string' || !update.sessionId) throw new Error('subagent_update without a sessionId');
    let record = this.byId.get(update.sessionId);
    const created = !record;
    if (!record) {
      record = {
        childId: update.sessionId,
        title: undefined,
        description: undefined,
        cancellable: false,
        activity: 'unset',
        stopReason: undefined,
        cwd: undefined,
        additionalDirectories: undefined,
        parentToolCallId: undefined,
        prompt: undefined,
        report: undefined,
        toolsUsed: undefined,
        background: false,
        collision: undefined,
        revision: 0,
      };
      this.byId.set(update.sessionId, record);
    }
    if (update.title !== undefined) record.title = update.title ?? undefined;
    if (update.description !== undefined) record.description = update.description ?? undefined;
    if (update.capabilities !== undefined) record.cancellable = update.capabilities?.cancel != null;
    if (update.cwd !== undefined) record.cwd = update.cwd ?? undefined;
    if (update.additionalDirectories !== undefined) record.additionalDirectories = update.additionalDirectories ?? undefined;
    if (update.state !== undefined) {
      const state = update.state;
      record.activity = state === null ? 'unset' : activityOf(state.state);
      const reason = state && 'stopReason' in state ? state.stopReason : undefined;
      record.stopReason = record.activity === 'idle' && typeof reason === 'string' ? reason : undefined;
    }
    record.revision++;
    return { record, created };
  }

  /**
   * A `session_message` on the parent: the prompt it gives a child (recipient = a child) or a
   * child's report (sender = a child). Undefined when it names no child of this session.
   */
  applyMessage(message: SessionMessage): SubagentRecord | undefined {
    const known = this.messages.get(message.messageId);
    let target = known;
    if (!target) {
      const recipient = message.recipientSessionId ? this.byId.get(message.recipientSessionId) : undefined;
      const sender = message.senderSessionId ? this.byId.get(message.senderSessionId) : undefined;
      if (recipient) target = { childId: recipient.childId, part: 'prompt' };
      else if (sender) target = { childId: sender.childId, part: 'report' };
      if (!target) return undefined;
      this.messages.set(message.messageId, target);
    }
    const record = this.byId.get(target.childId);
    if (!record) return undefined;
    // Claude: the prompt's message id is the spawning tool call's id (the report's is `<id>:reply`).
    if (target.part === 'prompt' && record.parentToolCallId === undefined) record.parentToolCallId = message.messageId;
    if (message.content !== undefined) this.setText(record, target.part, textOf(message.content ?? []));
    record.revision++;
    return record;
  }

  /** A streamed piece of a message this store knows; undefined otherwise. */
  applyChunk(chunk: SessionMessageChunk): SubagentRecord | undefined {
    const target = this.messages.get(chunk.messageId);
    const record = target ? this.byId.get(target.childId) : undefined;
    if (!target || !record) return undefined;
    const before = target.part === 'prompt' ? record.prompt : (record.toolsUsed ? `<tools-used-before-summary>${record.toolsUsed}</tools-used-before-summary>` : '') + (record.report ?? '');
    this.setText(record, target.part, (before ?? '') + textOf([chunk.content]));
    record.revision++;
    return record;
  }

  /** A child's spawning tool call, learnt from the child's own traffic (`_meta.claudeCode.parentToolUseId`). */
  setParentToolCall(childId: string, toolCallId: string): SubagentRecord | undefined {
    const record = this.byId.get(childId);
    if (!record || record.parentToolCallId !== undefined) return undefined;
    record.parentToolCallId = toolCallId;
    record.revision++;
    return record;
  }

  markCollision(childId: string, why: string): void {
    const record = this.byId.get(childId);
    if (!record) return;
    record.collision = why;
    record.revision++;
  }

  /**
   * The agent exited: a child it still ran will never say it stopped, so it stops here, "idle
   * (agent exited)". Returns those it stopped.
   */
  agentExited(): SubagentRecord[] {
    const stopped: SubagentRecord[] = [];
    for (const record of this.byId.values()) {
      if (record.activity === 'running' || record.activity === 'requires_action') {
        record.activity = 'idle';
        record.stopReason = AGENT_EXITED;
        record.revision++;
        stopped.push(record);
      }
    }
    return stopped;
  }

  /** The parent's turn ended: the children still at work go on in the background. Returns those newly so. */
  endTurn(): SubagentRecord[] {
    const moved: SubagentRecord[] = [];
    for (const record of this.byId.values()) {
      if (!record.background && (record.activity === 'running' || record.activity === 'requires_action')) {
        record.background = true;
        record.revision++;
        moved.push(record);
      }
    }
    return moved;
  }

  private setText(record: SubagentRecord, part: 'prompt' | 'report', text: string): void {
    if (part === 'prompt') {
      record.prompt = cut(text);
      return;
    }
    const tools = TOOLS_USED.exec(text);
    if (tools) record.toolsUsed = tools[1]?.trim() || undefined;
    const report = tools ? text.slice(tools[0].length) : text;
    if (BACKGROUND_LAUNCH.test(report)) {
      // Not the report: the CLI put the child in the background; the report comes later.
      record.background = true;
      return;
    }
    record.report = cut(report);
  }
}

export function activityOf(state: string): SubagentActivity {
  switch (state) {
    case 'running':
    case 'requires_action':
    case 'idle':
    case 'unknown':
      return state;
    default:
      // A state newer than this client: shown as not known rather than guessed.
      return 'unknown';
  }
}

/** "running", "needs you", "idle (end_turn)", "running in the background"… */
export function activityLabel(record: Pick<SubagentRecord, 'activity' | 'stopReason' | 'background'>): string {
  const background = record.background ? ' in the background' : '';
  switch (record.activity) {
    case 'running':
      return `running${background}`;
    case 'requires_action':
      return `needs you${background}`;
    case 'idle':
      return record.stopReason ? `idle (${record.stopReason})` : 'idle';
    case 'unknown':
      return 'state unknown';
    case 'unset':
      return 'starting';
  }
}

/** How a child is named to the user: its title, else its description, else its id. */
export function subagentName(record: Pick<SubagentRecord, 'title' | 'description' | 'childId'>): string {
  return record.title?.trim() || record.description?.trim() || `subagent ${record.childId}`;
}

function textOf(blocks: readonly ContentBlock[]): string {
  let text = '';
  for (const block of blocks) if (block && block.type === 'text' && typeof block.text === 'string') text += block.text;
  return text;
}

function cut(text: string): string {
  return text.length <= MAX_SUBAGENT_MESSAGE_CHARS ? text : `${text.slice(0, MAX_SUBAGENT_MESSAGE_CHARS)}…`;
}

/** Claude's adapter marks a child's traffic with the spawning tool call: `_meta.claudeCode.parentToolUseId`. */
export function parentToolUseIdOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const claude = (meta as { claudeCode?: unknown }).claudeCode;
  if (typeof claude !== 'object' || claude === null) return undefined;
  const id = (claude as { parentToolUseId?: unknown }).parentToolUseId;
  return typeof id === 'string' && id ? id : undefined;
}
