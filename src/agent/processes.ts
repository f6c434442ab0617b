/**
 * Shell commands the agent runs itself. Each runs in its own process group, so stopping it stops
 * everything it started (a `sleep &` inside, a dev server's workers); output from stdout and
 * stderr is delivered as decoded text in arrival order, as the process writes it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
  /** The command could not be started at all. */
  error?: string;
}

export interface ShellProcess {
  readonly pid: number | undefined;
  readonly exited: Promise<ExitStatus>;
  /** Stops the whole process group: SIGTERM, then SIGKILL after a grace period. */
  kill(): Promise<ExitStatus>;
}

export interface StartOptions {
  cwd: string;
  onOutput(data: string): void;
}

const isWindows = process.platform === 'win32';
/** After the shell exits, how long to wait for its pipes to drain (a background child may hold them). */
const DRAIN_MS = 200;
const KILL_GRACE_MS = 1500;

/**
 * The environment of the commands the agent runs. VS Code starts this agent with its own runtime
 * and ELECTRON_RUN_AS_NODE=1; a user's command must not inherit that (an Electron app it launches
 * would run as plain Node).
 */
function commandEnv(): NodeJS.ProcessEnv {
  const { ELECTRON_RUN_AS_NODE: _electronAsNode, ...env } = process.env;
  return { ...env, PAGER: 'cat', GIT_PAGER: 'cat' };
}

export function startShell(command: string, options: StartOptions): ShellProcess {
  const [shell, args] = shellFor(command);
  const child = spawn(shell, args, {
    cwd: options.cwd,
    env: commandEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: !isWindows,
    windowsHide: true,
    windowsVerbatimArguments: isWindows,
  });
  for (const stream of [child.stdout, child.stderr]) {
    // One decoder per stream: a multi-byte character split across chunks must survive.
    const decoder = new StringDecoder('utf8');
    stream?.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text) options.onOutput(text);
    });
    stream?.on('end', () => {
      const rest = decoder.end();
      if (rest) options.onOutput(rest);
    });
  }
  const exited = waitForExit(child);
  return {
    pid: child.pid,
    exited,
    kill: async () => {
      killTree(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killTree(child.pid, 'SIGKILL'), KILL_GRACE_MS);
      const status = await exited;
      clearTimeout(timer);
      // The shell may be gone while children it started live on in the group.
      killTree(child.pid, 'SIGKILL');
      return status;
    },
  };
}

function waitForExit(child: ChildProcess): Promise<ExitStatus> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: ExitStatus): void => {
      if (settled) return;
      settled = true;
      resolve(status);
    };
    child.once('error', (error) => settle({ exitCode: null, signal: null, error: error.message }));
    child.once('close', (code, signal) => settle({ exitCode: code, signal }));
    child.once('exit', (code, signal) => {
      // 'close' waits for the pipes; a backgrounded grandchild can hold them open for ever.
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        settle({ exitCode: code, signal });
      }, DRAIN_MS).unref();
    });
  });
}

function shellFor(command: string): [string, string[]] {
  if (isWindows) return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `"${command}"`]];
  return [existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh', ['-c', command]];
}

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  if (isWindows) {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
