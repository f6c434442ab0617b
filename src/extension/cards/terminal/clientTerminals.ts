import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { Utf8Carry } from './model/byteTail';
import { OutputBuffer } from './model/outputBuffer';
import type { CommandEnd } from './model/terminalText';
import type { Logger } from '../../base/log';
import { Disposable, type IDisposable } from '../../base/lifecycle';
import type { Scope } from '../../base/scope';

/** Where a client terminal shows its output: one terminal panel. */
export interface TerminalPanel {
  /**
   * Appends output: text, or whole UTF-8 characters of the process's bytes, copied as they are
   * and decoded only if shown (the panel bounds what it holds).
   */
  write(data: string | Uint8Array): void;
  /** The command ended: a status line; the panel stays readable. */
  end(end: CommandEnd): void;
}

/**
 * The port client terminals show themselves through, so services never reach into the renderers
 * (layers point down). Implemented by cards/terminal's TerminalViews.
 */
export interface TerminalPanels {
  /** Opens the panel for a terminal id, without taking focus; `onUserClose` when the user closes it. */
  open(options: { terminalId: string; name: string; header?: string; onUserClose?: () => void }): TerminalPanel;
}

interface ClientTerminal {
  readonly id: string;
  readonly sessionId: string;
  readonly child: ChildProcess;
  readonly buffer: OutputBuffer;
  exit: acp.TerminalExitStatus | undefined;
  readonly exited: Promise<acp.TerminalExitStatus>;
  released: boolean;
  /** Its place in its agent's scope: the agent exiting kills it. */
  inAgentScope: IDisposable | undefined;
}

const KILL_GRACE_MS = 2000;
/**
 * Without an `outputByteLimit`, keep this much: a runaway command must not exhaust memory, and
 * every `terminal/output` answer carries all of it (serialised, sent and traced in one event-loop
 * turn: 16 MiB stalled the extension host for 100–250 ms per poll). 1 MiB is ~250k tokens, more
 * than any agent puts in its context; an agent that wants more asks for it.
 */
export const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;

/**
 * Terminals the agent creates with `terminal/create`: real processes spawned without a shell,
 * stdin closed, output kept in a buffer that honours `outputByteLimit` and mirrored live into a
 * terminal panel named after the command. Closing that panel kills the process tree.
 */
export class ClientTerminals extends Disposable {
  private readonly terminals = new Map<string, ClientTerminal>();
  private nextId = 1;

  constructor(
    private readonly deps: {
      panels: TerminalPanels;
      log: Logger;
      /**
       * Resolves and checks the cwd (absolute, inside the workspace); throws a RequestError. May ask
       * the user (a cwd outside the workspace); the agent cancelling the request closes the question.
       */
      resolveCwd: (cwd: string | null | undefined, sessionId: string, signal?: AbortSignal) => Promise<string>;
      /** The open sessions: a terminal lives in its session's agent scope (killed when the agent exits). */
      sessions?: { session(sessionId: string): { readonly agentScope: Scope } | undefined };
    },
  ) {
    super();
  }

  async create(params: acp.CreateTerminalRequest, signal?: AbortSignal): Promise<acp.CreateTerminalResponse> {
    const cwd = await this.deps.resolveCwd(params.cwd, params.sessionId, signal);
    // The agent gave up on this terminal while we asked: starting it would leave a process nobody owns.
    if (signal?.aborted) throw acp.RequestError.requestCancelled({ cwd: params.cwd });
    const id = `client-terminal-${this.nextId++}`;
    const env: NodeJS.ProcessEnv = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' };
    for (const v of params.env ?? []) env[v.name] = v.value;
    const args = params.args ?? [];
    const child = spawn(params.command, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so kill reaches every process the command started.
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    const buffer = new OutputBuffer(params.outputByteLimit ?? DEFAULT_OUTPUT_LIMIT);
    const commandLine = [params.command, ...args].join(' ');
    const panel = this.deps.panels.open({
      terminalId: id,
      name: truncate(commandLine, 40),
      header: `$ ${commandLine}  (cwd: ${cwd})`,
      onUserClose: () => this.killTree(terminal),
    });
    const exited = new Promise<acp.TerminalExitStatus>((resolve) => {
      child.once('error', (error) => {
        const text = `failed to start "${params.command}": ${error.message}\n`;
        buffer.append(text);
        panel.write(text);
      });
      child.once('close', (code, signal) => resolve({ exitCode: code, signal }));
    });
    const terminal: ClientTerminal = { id, sessionId: params.sessionId, child, buffer, exit: undefined, exited, released: false, inAgentScope: undefined };
    terminal.inAgentScope = this.deps.sessions?.session(params.sessionId)?.agentScope.onDispose(() => this.killTree(terminal));
    // The bytes go to the buffer and the panel as they came, undecoded: both keep only a bounded
    // tail (a reused ring), and decode it when it is read (terminal/output) or shown (a panel
    // delivery), so a flood costs two copies per chunk. Each stream's characters cut between chunks are
    // completed first, so stdout and stderr interleave on character boundaries.
    for (const stream of [child.stdout, child.stderr]) {
      const carry = new Utf8Carry();
      const forward = (bytes: Uint8Array) => {
        if (bytes.length === 0) return;
        buffer.appendBytes(bytes);
        panel.write(bytes);
      };
      stream?.on('data', (chunk: Buffer) => forward(carry.push(chunk)));
      stream?.on('end', () => forward(carry.end()));
    }
    void exited.then((status) => {
      terminal.exit = status;
      terminal.inAgentScope?.dispose();
      panel.end({ exitCode: status.exitCode ?? null, signal: status.signal ?? null });
    });
    this.terminals.set(id, terminal);
    this.deps.log.info(`terminal/create ${id}: ${commandLine} (cwd ${cwd})`);
    return { terminalId: id };
  }

  output(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const t = this.get(params.terminalId);
    return { output: t.buffer.text, truncated: t.buffer.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
    const t = this.get(params.terminalId);
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(acp.RequestError.requestCancelled());
      signal.addEventListener('abort', () => reject(acp.RequestError.requestCancelled()), { once: true });
    });
    return Promise.race([t.exited, aborted]);
  }

  kill(params: acp.KillTerminalRequest): acp.KillTerminalResponse {
    this.killTree(this.get(params.terminalId));
    return {};
  }

  release(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    const t = this.get(params.terminalId);
    this.killTree(t);
    t.released = true;
    t.inAgentScope?.dispose();
    this.terminals.delete(t.id);
    return {};
  }

  override dispose(): void {
    for (const t of this.terminals.values()) this.killTree(t);
    super.dispose();
  }

  private get(terminalId: string): ClientTerminal {
    const t = this.terminals.get(terminalId);
    if (!t) throw acp.RequestError.invalidParams({ terminalId }, `Unknown or released terminal: ${terminalId}`);
    return t;
  }

  private killTree(t: ClientTerminal): void {
    if (t.exit || t.child.pid === undefined) return;
    signalTree(t.child, 'SIGTERM');
    const timer = setTimeout(() => {
      if (!t.exit) signalTree(t.child, 'SIGKILL');
    }, KILL_GRACE_MS);
    void t.exited.then(() => clearTimeout(timer));
  }
}

function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
