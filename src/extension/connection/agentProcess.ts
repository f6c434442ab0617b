import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { JsonLineFilter } from '../core/ndjsonFilter';
import type { Logger } from '../log';

export interface AgentLaunch {
  /** Shown in titles and logs. */
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface AgentExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last lines the agent wrote to stderr: the usual place where it says why it died. */
  stderrTail: string[];
}

const STDERR_TAIL_LINES = 20;

/**
 * One agent program on stdio. stdout carries newline-delimited JSON-RPC (non-JSON lines are
 * logged and skipped); stderr goes to the log. Writing to a dead agent never throws.
 */
export class AgentProcess {
  readonly exited: Promise<AgentExit>;
  private readonly child: ChildProcess;
  private readonly stderrTail: string[] = [];
  private alive = true;

  constructor(
    readonly launch: AgentLaunch,
    private readonly log: Logger,
  ) {
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.exited = new Promise((resolve) => {
      let settled = false;
      const finish = (exit: Omit<AgentExit, 'stderrTail'>) => {
        if (settled) return;
        settled = true;
        this.alive = false;
        resolve({ ...exit, stderrTail: [...this.stderrTail] });
      };
      this.child.once('error', (error) => {
        this.pushStderr(`failed to start "${launch.command}": ${error.message}`);
        finish({ code: null, signal: null });
      });
      this.child.once('close', (code, signal) => finish({ code, signal }));
    });
    // EPIPE and friends: the exit handler reports the death; never let it throw into the host.
    this.child.stdin?.on('error', (error) => log.debug(`[${launch.name}] stdin: ${error.message}`));
    this.child.stderr?.setEncoding('utf8');
    let stderrPartial = '';
    this.child.stderr?.on('data', (text: string) => {
      const lines = (stderrPartial + text).split('\n');
      stderrPartial = lines.pop() ?? '';
      for (const line of lines) this.pushStderr(line);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isAlive(): boolean {
    return this.alive;
  }

  /** The ACP stream over this process's stdio. */
  stream(): acp.Stream {
    const child = this.child;
    const filter = new JsonLineFilter((line) => this.log.warn(`[${this.launch.name}] skipped non-JSON stdout line: ${truncate(line)}`));
    const encoder = new TextEncoder();
    // The SDK may cancel this stream (connection closed) before the process's stdout ends.
    let open = true;
    const readable = new ReadableStream<Uint8Array>({
      start(controller) {
        child.stdout?.on('data', (chunk: Buffer) => {
          const kept = filter.push(chunk);
          if (kept && open) controller.enqueue(encoder.encode(kept));
          // One chunk per turn of the event loop: a flooding agent must not freeze the extension
          // host (timers, other extensions) while Node drains many chunks in one go.
          child.stdout?.pause();
          setImmediate(() => child.stdout?.resume());
        });
        child.stdout?.on('end', () => {
          const kept = filter.end();
          if (!open) return;
          if (kept) controller.enqueue(encoder.encode(kept));
          open = false;
          controller.close();
        });
        child.stdout?.on('error', (error) => {
          if (!open) return;
          open = false;
          controller.error(error);
        });
      },
      cancel() {
        open = false;
      },
    });
    const writable = new WritableStream<Uint8Array>({
      write: (chunk) => {
        if (!this.alive || !child.stdin || child.stdin.destroyed) return;
        child.stdin.write(chunk);
      },
      close: () => {
        child.stdin?.end();
      },
    });
    return acp.ndJsonStream(writable, readable);
  }

  /** Stops the agent: closes stdin, then SIGTERM, then SIGKILL if it lingers. */
  async stop(graceMs = 2000): Promise<void> {
    if (!this.alive) return;
    this.child.stdin?.end();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (this.alive) this.child.kill('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private pushStderr(line: string): void {
    if (!line.trim()) return;
    this.log.info(`[${this.launch.name}] ${line}`);
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
  }
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
