import * as path from 'node:path';
import * as z from 'zod';
import type { JsonValue } from '../json';
import { HeadCapture, middleTruncate } from '../outputBuffer';
import { startShell, type ExitStatus } from '../processes';
import { textBlock } from '../views';
import { ToolError, type ToolDefinition } from './types';

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;
/** How much output the model gets back; the terminal card keeps more. */
const MODEL_OUTPUT_CHARS = 30_000;

const args = z.object({
  command: z.string().min(1).describe('Shell command line (bash -c on POSIX, cmd /c on Windows).'),
  description: z.string().optional().describe('A few words on what the command does, shown above its output.'),
  run_in_background: z.boolean().optional().describe('Start it and return at once (servers, watchers); read it with task_output.'),
  timeout_ms: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe(`Foreground time limit. Default ${DEFAULT_TIMEOUT_MS}.`),
  cwd: z.string().optional().describe('Working folder. Default: the session folder.'),
});
type BashArgs = z.infer<typeof args>;

type BashValue =
  | { kind: 'foreground'; output: string; exit: ExitStatus; timedOut: boolean }
  | { kind: 'background'; id: string; pid: number | undefined };

const terminalMeta = z.object({
  output: z.string(),
  exitCode: z.number().int().optional(),
  signal: z.string().optional(),
});

export const bashTool: ToolDefinition<BashArgs, BashValue> = {
  name: 'bash',
  description:
    'Run a shell command in the session folder. Output streams to the user as it is written. ' +
    'Use run_in_background for commands that do not finish by themselves.',
  args,
  resolveArgs: (a, cwd) => ({ ...a, cwd: path.resolve(cwd, a.cwd ?? '.') }),
  permission: () => 'execute',
  presentCall: (a) =>
    a.run_in_background
      ? { card: 'generic', title: `Run in background: ${a.command}`, kind: 'execute', rawInput: a }
      : { card: 'terminal', title: a.command, ...(a.description ? { description: a.description } : {}), ...(a.cwd ? { cwd: a.cwd } : {}) },
  async execute(a, ctx) {
    const cwd = a.cwd ?? ctx.cwd;
    if (ctx.signal.aborted) throw new ToolError('Cancelled before it ran.');
    if (a.run_in_background) {
      const { id, pid } = ctx.tasks.start(a.command, cwd, ctx.turn);
      return { kind: 'background', id, pid };
    }
    const capture = new HeadCapture();
    // Output after the result (a straggler holding the pipe) would contradict the stored result.
    let finished = false;
    const child = startShell(a.command, {
      cwd,
      onOutput: (data) => {
        const kept = finished ? '' : capture.append(data);
        if (kept) ctx.terminalOutput(kept);
      },
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void child.kill();
    }, a.timeout_ms ?? DEFAULT_TIMEOUT_MS);
    const onAbort = (): void => void child.kill();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    if (ctx.signal.aborted) onAbort();
    try {
      const exit = await child.exited;
      finished = true;
      return { kind: 'foreground', output: capture.text(), exit, timedOut };
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
  },
  output: {
    render(a, v) {
      if (v.kind === 'background') {
        return {
          isError: false,
          text: `Started ${v.id}${v.pid !== undefined ? ` (pid ${v.pid})` : ''} in the background: ${a.command}\nRead its output with task_output, stop it with task_kill.`,
        };
      }
      const { exit } = v;
      const ending = exit.error
        ? `[could not start: ${exit.error}]`
        : v.timedOut
          ? `[timed out after ${a.timeout_ms ?? DEFAULT_TIMEOUT_MS} ms; killed]`
          : exit.signal
            ? `[killed by ${exit.signal}]`
            : `[exit code ${exit.exitCode ?? 'unknown'}]`;
      const output = middleTruncate(v.output, MODEL_OUTPUT_CHARS);
      return { isError: exit.exitCode !== 0, text: output ? `${output}${output.endsWith('\n') ? '' : '\n'}${ending}` : ending };
    },
    presentationMeta(_a, v): JsonValue | undefined {
      if (v.kind === 'background') return undefined;
      const output = v.exit.error ? `${v.output}could not start: ${v.exit.error}\n` : v.output;
      return {
        output,
        ...(v.exit.exitCode !== null ? { exitCode: v.exit.exitCode } : {}),
        ...(v.exit.signal !== null ? { signal: v.exit.signal } : {}),
      };
    },
  },
  presentResult(a, outcome, meta) {
    if (a.run_in_background) return { card: 'generic', content: [textBlock(outcome.text)] };
    const parsed = terminalMeta.safeParse(meta);
    // No meta: the command never ran (rejected, or it failed to start); its terminal shows why.
    if (!parsed.success) return { card: 'terminal', output: `${outcome.text}\n` };
    return { card: 'terminal', ...parsed.data };
  },
};
