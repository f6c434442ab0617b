import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { JsonLineFilter, LineTooLongError } from '../core/ndjsonFilter';
import { SlicedFeed } from '../core/slicedFeed';
import { LineTail } from '../core/lineTail';
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
  /** Why ACP Native stopped it, when it did so because something went wrong (e.g. a broken connection). */
  reason?: string;
}

const STDERR_TAIL_LINES = 20;
/** Characters kept of one stderr line (log and exit message): a line without newlines must not grow without bound. */
const STDERR_LINE_CHARS = 2000;

/**
 * Sees each JSON-RPC line sent to (`send`) or received from (`receive`) the agent. `isActive`
 * says whether it wants lines now: when it does not, they are not decoded for it (a 10 MB file's
 * `fs/*` message decoded only to be dropped cost the extension host ~30 ms in one turn).
 */
export type ProtocolTap = ((direction: 'send' | 'receive', line: string) => void) & { readonly isActive?: () => boolean };

function tapping(tap: ProtocolTap | undefined): tap is ProtocolTap {
  return tap !== undefined && (tap.isActive?.() ?? true);
}

function tapLines(tap: ProtocolTap, direction: 'send' | 'receive', text: string): void {
  for (const line of text.split('\n')) if (line.trim()) tap(direction, line);
}

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

  /** The ACP stream over this process's stdio. */
  stream(): acp.Stream {
    const child = this.child;
    const filter = new JsonLineFilter((prefix, bytes) => {
      const size = bytes > prefix.length + 1 ? ` (${bytes} bytes)` : '';
      this.log.warn(`[${this.launch.name}] skipped non-JSON stdout line${size}: ${truncate(prefix)}`);
    }, acp.DEFAULT_MAX_MESSAGE_BYTES);
    const decoder = new TextDecoder();
    const sendDecoder = new TextDecoder();
    const tap = this.tap;
    // The SDK may cancel this stream (connection closed) before the process's stdout ends.
    let open = true;
    const readable = new ReadableStream<Uint8Array>({
      start(controller) {
        // Lines go to the SDK a slice per event-loop turn (see SlicedFeed); stdout stays paused
        // until a read's lines are all delivered, so a flooding agent waits in its pipe.
        const feed = new SlicedFeed<Uint8Array>({
          deliver: (line) => {
            if (!open) return;
            if (tapping(tap)) tapLines(tap, 'receive', decoder.decode(line));
            controller.enqueue(line);
          },
          sizeOf: (line) => line.length,
          onDrained: () => {
            // The next read on a later turn: many chunks waiting in the pipe must not all land in this one.
            if (open) setImmediate(() => child.stdout?.resume());
          },
        });
        child.stdout?.on('data', (chunk: Buffer) => {
          if (!open) return;
          let lines: Uint8Array[];
          try {
            lines = filter.push(chunk);
          } catch (error) {
            if (!(error instanceof LineTooLongError)) throw error;
            // The SDK closes the connection with this error; AgentConnection then stops the agent.
            feed.flush();
            open = false;
            controller.error(error);
            return;
          }
          child.stdout?.pause();
          feed.push(lines);
        });
        child.stdout?.on('end', () => {
          if (!open) return;
          feed.push(filter.end());
          feed.flush();
          open = false;
          controller.close();
        });
        child.stdout?.on('error', (error) => {
          if (!open) return;
          feed.flush();
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
        if (tapping(tap)) tapLines(tap, 'send', sendDecoder.decode(chunk, { stream: true }));
        child.stdin.write(chunk);
      },
      close: () => {
        child.stdin?.end();
      },
    });
    return acp.ndJsonStream(writable, readable);
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

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
