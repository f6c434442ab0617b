/**
 * Session events → `session/update`s. The live turn and `session/load` both go through here, with
 * the tools' pure `presentCall` / `presentResult` and the bridge, so a replayed card is the live
 * card by construction; replay needs nothing but the log (no file I/O, no diff recomputation).
 */
import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';
import { callToAcp, resultToAcp, type BridgeContext } from './bridge';
import type { JsonValue } from './json';
import { log } from './log';
import type { SessionEvent } from './sessionEvents';
import { toolNamed } from './tools';
import type { ToolPresentation } from './tools/registry';
import { textBlock, type ToolCallView, type ToolResultView } from './views';

export interface ProjectOptions {
  /** Live only: the command's output already went out chunk by chunk as it was written. */
  outputStreamed: boolean;
}

const REPLAY: ProjectOptions = { outputStreamed: false };

export class Projector {
  /** Calls seen so far, for presenting their results; removed once they have one. */
  private readonly open = new Map<string, OpenCall>();

  constructor(private readonly bridge: BridgeContext) {}

  project(event: SessionEvent, options: ProjectOptions = REPLAY): SessionUpdate[] {
    switch (event.type) {
      case 'session':
      case 'mode':
        return [];
      case 'user_message':
        return event.content.map((block) => ({ sessionUpdate: 'user_message_chunk', content: block as ContentBlock }));
      case 'agent_message':
        return [{ sessionUpdate: 'agent_message_chunk', content: textBlock(event.text) }];
      case 'agent_thought':
        return [{ sessionUpdate: 'agent_thought_chunk', content: textBlock(event.text) }];
      case 'tool_call': {
        const call: OpenCall = { tool: event.tool, args: event.args, presentation: this.presentation(event.tool, event.args) };
        this.open.set(event.toolCallId, call);
        return [callToAcp(event.toolCallId, this.callView(call), this.bridge)];
      }
      case 'tool_result': {
        const call = this.open.get(event.toolCallId);
        if (call === undefined) {
          log.warn(`result for unknown tool call ${event.toolCallId}: skipped`);
          return [];
        }
        this.open.delete(event.toolCallId);
        const outcome = { isError: event.isError, text: event.text };
        const view = this.resultView(call, outcome, event.meta);
        return resultToAcp(event.toolCallId, view, event.isError ? 'failed' : 'completed', this.bridge, options);
      }
      case 'plan':
        return [{ sessionUpdate: 'plan', entries: event.entries }];
    }
  }

  /**
   * Calls that never got a result (the agent stopped mid-call) end as failed, so a reloaded
   * session shows no card spinning for ever.
   */
  finishInterrupted(): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    for (const id of this.open.keys()) {
      const view: ToolResultView = { card: 'generic', content: [textBlock('Interrupted: the agent stopped before this call finished.')] };
      updates.push(...resultToAcp(id, view, 'failed', this.bridge, REPLAY));
    }
    this.open.clear();
    return updates;
  }

  /** The tool with the call's arguments parsed, or undefined when the tool is unknown or they do not parse. */
  private presentation(toolName: string, args: JsonValue): ToolPresentation | undefined {
    try {
      return toolNamed(toolName)?.present(args);
    } catch (error) {
      log.warn(`cannot present a ${toolName} call`, error);
      return undefined;
    }
  }

  private callView(call: OpenCall): ToolCallView {
    try {
      if (call.presentation !== undefined) return call.presentation.call();
    } catch (error) {
      log.warn(`cannot present a ${call.tool} call`, error);
    }
    return { card: 'generic', title: `${call.tool} (arguments not understood)`, kind: 'other', rawInput: call.args };
  }

  private resultView(call: OpenCall, outcome: { isError: boolean; text: string }, meta: JsonValue | undefined): ToolResultView {
    try {
      if (call.presentation !== undefined) return call.presentation.result(outcome, meta);
    } catch (error) {
      log.warn(`cannot present a ${call.tool} result`, error);
    }
    return { card: 'generic', content: [textBlock(outcome.text)] };
  }
}

interface OpenCall {
  tool: string;
  args: JsonValue;
  /** Undefined when the call could not be presented (an unknown tool, arguments that do not parse). */
  presentation: ToolPresentation | undefined;
}
