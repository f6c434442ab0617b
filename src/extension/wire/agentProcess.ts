import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { sharedJsonWorker } from './jsonWorker';
import { LineTail } from './lineTail';
import type { Logger } from '../base/log';
import { messageStream, type ProtocolTap } from './messageStream';

export type { ProtocolTap } from './messageStream';

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
  /** Why ACP Native stopped it, when it did so because something went wrong (e.g. a broken connection). */
  reason?: string;
}

const STDERR_TAIL_LINES = 20;
/** Characters kept of one stderr line (log and exit message): a line without newlines must not grow without bound. */
const STDERR_LINE_CHARS = 2000;

/**
 * One agent program on stdio. stdout carries newline-delimited JSON-RPC (non-JSON lines are
 * logged and skipped); stderr goes to the log. Writing to a dead agent never throws.
 */
export class AgentProcess {
  readonly exited: Promise<AgentExit>;
  private readonly child: ChildProcess;
  private readonly stderr: LineTail;
  private alive = true;
  private stdoutEnded = false;
  private stopReason: string | undefined;

  constructor(
    readonly launch: AgentLaunch,
    private readonly log: Logger,
    private readonly tap?: ProtocolTap,
  ) {
    this.child = spawn(launch.command, launch.args, {
      cwd: launch.cwd,
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group, so stopping it reaches what it started: npm's codex-acp is a Node
      // wrapper whose native child ignores stdin's end and would outlive a SIGTERM to the wrapper,
      // holding stdout open (and the stop waiting) forever.
      detached: process.platform !== 'win32',
    });
    this.exited = new Promise((resolve) => {
      let settled = false;
      const finish = (exit: Omit<AgentExit, 'stderrTail'>) => {
        if (settled) return;
        settled = true;
        this.alive = false;
        this.stderr.end();
        resolve({ ...exit, stderrTail: [...this.stderr.lines], ...(this.stopReason ? { reason: this.stopReason } : {}) });
      };
      this.child.once('error', (error) => {
        this.stderr.push(`\nfailed to start "${launch.command}": ${error.message}\n`);
        finish({ code: null, signal: null });
      });
      this.child.once('close', (code, signal) => finish({ code, signal }));
    });
    // EPIPE and friends: the exit handler reports the death; never let it throw into the host.
    this.child.stdin?.on('error', (error) => log.debug(`[${launch.name}] stdin: ${error.message}`));
    this.stderr = new LineTail({
      maxLineChars: STDERR_LINE_CHARS,
      maxLines: STDERR_TAIL_LINES,
      onLine: (line) => log.info(`[${launch.name}] ${line}`),
    });
    this.child.stdout?.once('end', () => (this.stdoutEnded = true));
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderr.push(text);
      // Like stdout: one chunk per turn of the event loop, so a flood cannot hog the host.
      this.child.stderr?.pause();
      setImmediate(() => this.child.stderr?.resume());
    });
  }

  /** The agent closed its stdout: it is exiting (or can no longer answer). */
  get hasClosedOutput(): boolean {
    return this.stdoutEnded;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get isAlive(): boolean {
    return this.alive;
  }

  /** The ACP stream over this process's stdio (see messageStream). */
  stream(): acp.Stream {
    const { stdin, stdout } = this.child;
    if (!stdin || !stdout) throw new Error(`[${this.launch.name}] the agent has no stdio pipes`);
    return messageStream({
      name: this.launch.name,
      log: this.log,
      tap: this.tap,
      input: stdout,
      output: {
        write: (data) => {
          if (this.alive && !stdin.destroyed) stdin.write(data);
        },
        end: () => stdin.end(),
      },
      worker: sharedJsonWorker(),
    });
  }

  /** Signals the agent's whole process group (POSIX), else the agent alone. */
  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (process.platform !== 'win32' && pid !== undefined) {
      try {
        process.kill(-pid, signal);
        return;
      } catch {
        // The group is gone already: fall through to the child itself.
      }
    }
    this.child.kill(signal);
  }

  /**
   * Stops the agent: closes stdin, then SIGTERM, then SIGKILL if it lingers. A `reason` (something
   * went wrong) is reported in its exit.
   */
  async stop(options: { graceMs?: number; reason?: string } = {}): Promise<void> {
    if (!this.alive) return;
    const graceMs = options.graceMs ?? 2000;
    this.stopReason ??= options.reason;
    this.child.stdin?.end();
    this.signal('SIGTERM');
    const timer = setTimeout(() => {
      if (this.alive) this.signal('SIGKILL');
    }, graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

