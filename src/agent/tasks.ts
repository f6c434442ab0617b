/**
 * Background tasks of one session (`bash` with `run_in_background`). They outlive the turn that
 * started them, unless that turn is cancelled; `task_output` reads what they printed since the
 * last read and `task_kill` stops them.
 */
import { RollingOutput } from './outputBuffer';
import { startShell, type ExitStatus, type ShellProcess } from './processes';

interface Task {
  id: string;
  command: string;
  turn: number;
  process: ShellProcess;
  output: RollingOutput;
  readUpTo: number;
  exit?: ExitStatus;
}

export interface TaskSnapshot {
  id: string;
  command: string;
  running: boolean;
  exit?: ExitStatus;
  /** Output since the previous read. */
  output: string;
  /** Characters dropped (too much output) before anyone read them. */
  lost: number;
}

export class TaskRegistry {
  private readonly tasks = new Map<string, Task>();

  /** `nextNumber` continues a reloaded session's numbering, so ids in its history stay unique. */
  constructor(private nextNumber = 1) {}

  start(command: string, cwd: string, turn: number): { id: string; pid: number | undefined } {
    const id = `bg-${this.nextNumber++}`;
    const output = new RollingOutput();
    const process = startShell(command, { cwd, onOutput: (data) => output.append(data) });
    const task: Task = { id, command, turn, process, output, readUpTo: 0 };
    void process.exited.then((exit) => {
      task.exit = exit;
    });
    this.tasks.set(id, task);
    return { id, pid: process.pid };
  }

  has(id: string): boolean {
    return this.tasks.has(id);
  }

  /** Output since the last read; waits up to `waitMs` for the task to exit first. */
  async read(id: string, waitMs: number, signal: AbortSignal): Promise<TaskSnapshot | undefined> {
    const task = this.tasks.get(id);
    if (task === undefined) return undefined;
    if (waitMs > 0 && task.exit === undefined) await waitForExitOrTimeout(task.process, waitMs, signal);
    return this.snapshot(task);
  }

  async kill(id: string): Promise<TaskSnapshot | undefined> {
    const task = this.tasks.get(id);
    if (task === undefined) return undefined;
    task.exit = await task.process.kill();
    return this.snapshot(task);
  }

  /** Cancelling a turn stops the background tasks it started. */
  async killStartedIn(turn: number): Promise<void> {
    await Promise.all([...this.tasks.values()].filter((t) => t.turn === turn && t.exit === undefined).map((t) => this.kill(t.id)));
  }

  async killAll(): Promise<void> {
    await Promise.all([...this.tasks.values()].filter((t) => t.exit === undefined).map((t) => this.kill(t.id)));
  }

  private snapshot(task: Task): TaskSnapshot {
    const { text, lost } = task.output.since(task.readUpTo);
    task.readUpTo = task.output.end;
    return {
      id: task.id,
      command: task.command,
      running: task.exit === undefined,
      ...(task.exit !== undefined ? { exit: task.exit } : {}),
      output: text,
      lost,
    };
  }
}

async function waitForExitOrTimeout(process: ShellProcess, ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    process.exited,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal.removeEventListener('abort', onAbort);
}
