/**
 * Tools behind one shape. Each definition is typed by its own arguments and value; the rest of
 * the agent handles calls as JSON (that is what the log stores), so a `Tool` re-parses the JSON
 * arguments with the tool's schema at every entry point — which also keeps old logs honest.
 */
import * as z from 'zod';
import type { JsonValue } from '../json';
import { log } from '../log';
import type { ToolCallView, ToolResultView } from '../views';
import { ToolError, type PermissionClass, type PermissionScope, type ToolContext, type ToolDefinition, type ToolOutcome } from './types';

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments, for the model. */
  readonly inputSchema: Record<string, unknown>;
  /** Validates raw arguments and makes them self-contained (absolute paths) for the log. */
  prepare(raw: unknown, cwd: string): { ok: true; args: JsonValue } | { ok: false; error: string };
  permission(args: JsonValue, scope: PermissionScope): PermissionClass | undefined;
  presentCall(args: JsonValue): ToolCallView;
  run(args: JsonValue, ctx: ToolContext): Promise<{ outcome: ToolOutcome; meta: JsonValue | undefined }>;
  presentResult(args: JsonValue, outcome: ToolOutcome, meta: JsonValue | undefined): ToolResultView;
  /**
   * Both presentations of one call with its arguments parsed once (a replay presents thousands of
   * calls and their results). Throws, as `presentCall` does, when the arguments do not parse.
   */
  present(args: JsonValue): ToolPresentation;
}

export interface ToolPresentation {
  call(): ToolCallView;
  result(outcome: ToolOutcome, meta: JsonValue | undefined): ToolResultView;
}

export function eraseTool<Args, Value>(def: ToolDefinition<Args, Value>): Tool {
  const parse = (args: JsonValue): Args => def.args.parse(args);
  const { $schema: _schema, ...inputSchema } = z.toJSONSchema(def.args, { io: 'input' }) as Record<string, unknown>;
  return {
    name: def.name,
    description: def.description,
    inputSchema,
    prepare(raw, cwd) {
      const parsed = def.args.safeParse(raw);
      if (!parsed.success) return { ok: false, error: `Invalid arguments for ${def.name}: ${z.prettifyError(parsed.error)}` };
      const resolved = def.resolveArgs ? def.resolveArgs(parsed.data, cwd) : parsed.data;
      return { ok: true, args: JSON.parse(JSON.stringify(resolved)) as JsonValue };
    },
    permission: (args, scope) => def.permission(parse(args), scope),
    presentCall: (args) => def.presentCall(parse(args)),
    async run(args, ctx) {
      const typed = parse(args);
      try {
        const value = await def.execute(typed, ctx);
        return { outcome: def.output.render(typed, value), meta: def.output.presentationMeta?.(typed, value) };
      } catch (error) {
        if (error instanceof ToolError) return { outcome: { isError: true, text: error.message }, meta: undefined };
        // A bug, not a tool failure: still fail the call visibly and let the turn go on.
        log.error(`tool ${def.name} crashed`, error);
        return { outcome: { isError: true, text: `${def.name} failed unexpectedly: ${String(error)}` }, meta: undefined };
      }
    },
    presentResult: (args, outcome, meta) => def.presentResult(parse(args), outcome, meta),
    present: (args) => new Presentation(def, parse(args)),
  };
}

/** One call's presentations over its parsed arguments (a class: no closures per call). */
class Presentation<Args, Value> implements ToolPresentation {
  constructor(
    private readonly def: ToolDefinition<Args, Value>,
    private readonly args: Args,
  ) {}

  call(): ToolCallView {
    return this.def.presentCall(this.args);
  }

  result(outcome: ToolOutcome, meta: JsonValue | undefined): ToolResultView {
    return this.def.presentResult(this.args, outcome, meta);
  }
}
