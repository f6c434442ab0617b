/**
 * One prompt turn: the `TurnContext` a brain drives. Streams messages as they come and logs each
 * one whole once it ends; runs tool calls through their whole life (call card → permission →
 * execution with live output → result card), logging every event before its update goes out.
 */
import { randomUUID } from 'node:crypto';
import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk';
import { callToAcp, permissionToolCall, terminalOutputToAcp, type BridgeContext } from './bridge';
import type { Brain, TurnContext } from './brains/types';
import type { FileStore } from './files/store';
import type { JsonValue } from './json';
import type { McpAccess } from './mcp/hub';
import { selectedKind, permissionOptions, WHAT } from './permissions';
import type { ProjectOptions } from './projector';
import type { SessionEvent } from './sessionEvents';
import type { TaskRegistry } from './tasks';
import { toolNamed } from './tools';
import type { PermissionClass, ToolOutcome } from './tools/types';
import { textBlock } from './views';

/** What a turn needs from its session. */
export interface TurnHost {
  readonly sessionId: string;
  /** The session's folders: cwd first, then the additional directories. */
  readonly roots: readonly string[];
  readonly bridge: BridgeContext;
  readonly tasks: TaskRegistry;
  readonly files: FileStore;
  readonly mcp: McpAccess;
  /** Appends to the log, then (unless `emit` is false) sends the updates derived from the event. */
  record(event: SessionEvent, emit: ProjectOptions | false): void;
  send(update: SessionUpdate): void;
  /** What the mode and earlier "always" answers say about a call of this class. */
  standingDecision(needed: PermissionClass): 'allow' | 'reject' | 'ask';
  remember(needed: PermissionClass, decision: 'allow' | 'reject'): void;
  requestPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  /** Cancels the running turn, as `session/cancel` does. */
  cancel(): void;
  updatePlan(entries: Extract<SessionEvent, { type: 'plan' }>['entries']): void;
}

export class Turn implements TurnContext {
  private message = '';
  private thought = '';

  constructor(
    private readonly host: TurnHost,
    readonly number: number,
    readonly signal: AbortSignal,
    readonly history: readonly SessionEvent[],
  ) {}

  get cwd(): string {
    return this.host.bridge.cwd;
  }

  get mcp(): McpAccess {
    return this.host.mcp;
  }

  run(brain: Brain, prompt: Parameters<Brain['runTurn']>[1]): ReturnType<Brain['runTurn']> {
    return brain.runTurn(this, prompt);
  }

  say(text: string): void {
    if (text === '') return;
    this.commitThought();
    this.message += text;
    this.host.send({ sessionUpdate: 'agent_message_chunk', content: textBlock(text) });
  }

  think(text: string): void {
    if (text === '') return;
    this.commitMessage();
    this.thought += text;
    this.host.send({ sessionUpdate: 'agent_thought_chunk', content: textBlock(text) });
  }

  /** Logs what was streamed so far as whole events (already sent: not emitted again). */
  commit(): void {
    this.commitThought();
    this.commitMessage();
  }

  async runTool(name: string, rawArgs: unknown): Promise<ToolOutcome & { toolCallId?: string }> {
    const tool = toolNamed(name);
    if (tool === undefined) return { isError: true, text: `There is no tool named ${name}.` };
    const prepared = tool.prepare(rawArgs, this.cwd);
    if (!prepared.ok) return { isError: true, text: prepared.error };
    const { args } = prepared;
    this.commit();

    const toolCallId = `call_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    this.host.record({ type: 'tool_call', toolCallId, tool: name, args }, { outputStreamed: false });

    const refusal = await this.checkPermission(toolCallId, name, args);
    if (refusal !== undefined) return this.finish(toolCallId, { outcome: refusal, meta: undefined }, false);

    this.host.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
    const streams = this.host.bridge.terminalOutput;
    const result = await tool.run(args, {
      cwd: this.cwd,
      signal: this.signal,
      toolCallId,
      turn: this.number,
      tasks: this.host.tasks,
      files: this.host.files,
      terminalOutput: (data) => {
        if (streams) this.host.send(terminalOutputToAcp(toolCallId, data));
      },
      plan: async (entries) => this.host.updatePlan(entries),
      mcp: this.host.mcp,
    });
    return this.finish(toolCallId, result, streams);
  }

  private finish(
    toolCallId: string,
    result: { outcome: ToolOutcome; meta: JsonValue | undefined },
    outputStreamed: boolean,
  ): ToolOutcome & { toolCallId: string } {
    const { outcome, meta } = result;
    this.host.record(
      { type: 'tool_result', toolCallId, isError: outcome.isError, text: outcome.text, ...(meta !== undefined ? { meta } : {}) },
      { outputStreamed },
    );
    return { ...outcome, toolCallId };
  }

  /** Undefined when the call may run; otherwise the outcome that fails it. */
  private async checkPermission(toolCallId: string, name: string, args: JsonValue): Promise<ToolOutcome | undefined> {
    const tool = toolNamed(name);
    const needed = tool?.permission(args, { roots: this.host.roots });
    if (tool === undefined || needed === undefined) return undefined;
    const standing = this.host.standingDecision(needed);
    if (standing === 'allow') return undefined;
    if (standing === 'reject') return { isError: true, text: `Rejected: the user rejected all ${WHAT[needed]} in this session.` };

    const toolCall = permissionToolCall(callToAcp(toolCallId, tool.presentCall(args), this.host.bridge));
    let answer: RequestPermissionResponse;
    try {
      answer = await raceAbort(
        this.host.requestPermission({ sessionId: this.host.sessionId, toolCall, options: permissionOptions(needed) }),
        this.signal,
      );
    } catch (error) {
      return { isError: true, text: `Rejected: the permission request failed (${String(error)}).` };
    }
    if (answer.outcome.outcome === 'cancelled') {
      // A client answers `cancelled` only when the turn is cancelled; its `session/cancel` may
      // still be on the way (or be handled after this answer), so the turn ends here either way.
      this.host.cancel();
      return { isError: true, text: 'Cancelled before it ran.' };
    }
    const kind = selectedKind(needed, answer.outcome.optionId);
    switch (kind) {
      case 'allow_always':
        this.host.remember(needed, 'allow');
        return undefined;
      case 'allow_once':
        return undefined;
      case 'reject_always':
        this.host.remember(needed, 'reject');
        return { isError: true, text: 'Rejected by the user.' };
      case 'reject_once':
        return { isError: true, text: 'Rejected by the user.' };
    }
  }

  private commitMessage(): void {
    if (this.message === '') return;
    this.host.record({ type: 'agent_message', text: this.message }, false);
    this.message = '';
  }

  private commitThought(): void {
    if (this.thought === '') return;
    this.host.record({ type: 'agent_thought', text: this.thought }, false);
    this.thought = '';
  }
}

/**
 * A permission request ends with the turn: the client should answer `cancelled` on
 * `session/cancel`, but the turn must not hang on one that does not.
 */
function raceAbort(request: Promise<RequestPermissionResponse>, signal: AbortSignal): Promise<RequestPermissionResponse> {
  const cancelled: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };
  if (signal.aborted) return Promise.resolve(cancelled);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(cancelled);
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
