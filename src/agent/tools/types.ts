/**
 * The tool contract. A tool parses its arguments, says how a call looks (`presentCall`), runs
 * (`execute`) to one canonical value, and projects that value twice: into model-facing text
 * (`output.render`) and into optional replayable UI data (`output.presentationMeta`, persisted on
 * the result event). `presentResult` turns the model-facing outcome plus that meta into the result
 * card. Both present functions are pure, so replay reproduces the live cards without I/O.
 */
import type { PlanEntry } from '@agentclientprotocol/sdk';
import type { z } from 'zod';
import type { FileStore } from '../files/store';
import type { JsonValue } from '../json';
import type { McpAccess } from '../mcp/hub';
import type { TaskRegistry } from '../tasks';
import type { ToolCallView, ToolResultView } from '../views';

/** What the model (and the log) sees of a finished call. */
export interface ToolOutcome {
  isError: boolean;
  text: string;
}

/** A failure meant for the model and the user, shown as the call's result (not a crash). */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** Which permission a call needs; the session mode and earlier "always" answers decide. */
export type PermissionClass = 'edit' | 'execute' | 'mcp' | 'read';

/** What a tool may consult to decide which permission a call needs. */
export interface PermissionScope {
  /** The session's folders (cwd and additional directories): reading inside them needs no permission. */
  readonly roots: readonly string[];
}

export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  toolCallId: string;
  /** The turn that runs the call: cancelling it also kills background tasks it started. */
  turn: number;
  tasks: TaskRegistry;
  /** Where files are read and written: the local disk or the client's fs/*, never told apart. */
  files: FileStore;
  /** Streams command output as the process writes it (display terminals). */
  terminalOutput(data: string): void;
  /** Sends the todo list to the client as an ACP `plan` (and logs it). */
  plan(entries: PlanEntry[]): Promise<void>;
  /** The session's MCP servers. */
  mcp: McpAccess;
}

export interface ToolDefinition<Args, Value> {
  name: string;
  /** For the model: what the tool does and when to use it. */
  description: string;
  args: z.ZodType<Args>;
  /** Makes arguments self-contained before they are logged (e.g. relative paths → absolute). */
  resolveArgs?(args: Args, cwd: string): Args;
  permission(args: Args, scope: PermissionScope): PermissionClass | undefined;
  presentCall(args: Args): ToolCallView;
  execute(args: Args, ctx: ToolContext): Promise<Value>;
  output: {
    render(args: Args, value: Value): ToolOutcome;
    presentationMeta?(args: Args, value: Value): JsonValue | undefined;
  };
  /** `meta` is undefined when the call failed before producing a value. */
  presentResult(args: Args, outcome: ToolOutcome, meta: JsonValue | undefined): ToolResultView;
}
