/**
 * One fault scenario in a fresh Node process (so its memory growth is its own), through the
 * extension's real code path: AgentProcess (+ the SDK's ndJsonStream) for an agent's stdout and
 * stderr, ClientTerminals + the terminal panel's pseudoterminal for `terminal/create`. Prints one
 * `RESULT {json}` line. Run by bench/faults.bench.ts: `tsx bench/faults/scenarios.ts NAME MB`.
 *
 * `vscode` is replaced by a small stand-in (an EventEmitter) so the pseudoterminal runs in plain
 * Node; the stand-in "opens" the terminal at once and consumes what it is given, as VS Code does.
 */
import { spawn } from 'node:child_process';
import Module from 'node:module';
import * as path from 'node:path';
import { measure } from './probe';

const WRITER = path.join(__dirname, 'writer.js');

class StandInEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value: T): void {
    for (const l of this.listeners) l(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}
const standIn = { EventEmitter: StandInEmitter };
const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const originalLoad = moduleWithLoad._load;
moduleWithLoad._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? standIn : originalLoad(request, ...rest));

const log = {
  lines: 0,
  chars: 0,
  record(m: unknown) {
    this.lines++;
    this.chars += String(m).length;
  },
};
const logger = {
  trace: (m: string) => log.record(m),
  debug: (m: string) => log.record(m),
  info: (m: string) => log.record(m),
  warn: (m: string) => log.record(m),
  error: (m: unknown) => log.record(m),
  show: () => undefined,
};

const launch = (mode: string, stream: string, mb: number, code = 0) => ({
  name: 'flood',
  command: process.execPath,
  args: [WRITER, mode, stream, String(mb), String(code)],
  env: {},
  cwd: process.cwd(),
});

/** The same bytes through a bare pipe, read and dropped: what any client pays at least. */
async function pipeBaseline(mb: number, stream: 'stdout' | 'stderr'): Promise<Record<string, number>> {
  const child = spawn(process.execPath, [WRITER, 'plain', stream, String(mb)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let bytes = 0;
  child[stream].on('data', (chunk: Buffer) => (bytes += chunk.length));
  await new Promise((resolve) => child.once('close', resolve));
  return { bytes };
}

async function agentStdout(mb: number, mode: 'line' | 'json'): Promise<Record<string, number>> {
  const { AgentProcess } = modules.agentProcess;
  const agent = new AgentProcess(launch(mode, 'stdout', mb), logger);
  const reader = agent.stream().readable.getReader();
  let messages = 0;
  let failed = 0;
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      messages++;
    }
  } catch {
    failed = 1;
  }
  await agent.stop();
  return { messages, streamFailed: failed, logChars: log.chars };
}

async function agentStderr(mb: number): Promise<Record<string, number>> {
  const { AgentProcess } = modules.agentProcess;
  const { AgentExitedError } = modules.agentConnection;
  const agent = new AgentProcess(launch('progress', 'stderr', mb, 1), logger);
  const exit = await agent.exited;
  const message = new AgentExitedError('flood', exit).message;
  return { errorMessageChars: message.length, tailChars: exit.stderrTail.join('\n').length, logChars: log.chars };
}

async function terminalFlood(mb: number): Promise<Record<string, number>> {
  const { ClientTerminals } = modules.clientTerminals;
  const { terminalPanels } = modules.terminalPanels;
  const panels = terminalPanels();
  const terminals = new ClientTerminals({ ...panels.deps, log: logger, resolveCwd: async () => process.cwd() });
  const { terminalId } = await terminals.create({ sessionId: 's', command: process.execPath, args: [WRITER, 'plain', 'stdout', String(mb)] });
  await terminals.waitForExit({ sessionId: 's', terminalId }, new AbortController().signal);
  const output = terminals.output({ sessionId: 's', terminalId });
  terminals.dispose();
  return { keptChars: output.output.length, renderedChars: panels.renderedChars() };
}

/** Loaded before measuring: compiling them is not the fault's cost. */
async function load() {
  return {
    agentProcess: await import('../../src/extension/wire/agentProcess'),
    agentConnection: await import('../../src/extension/wire/agentConnection'),
    clientTerminals: await import('../../src/extension/cards/terminal/clientTerminals'),
    terminalPanels: await import('./terminalPanels'),
  };
}
let modules: Awaited<ReturnType<typeof load>>;

async function main(): Promise<void> {
  modules = await load();
  const [name, mbText] = process.argv.slice(2);
  const mb = Number(mbText);
  let extra: Record<string, number> = {};
  const cost = await measure(async () => {
    switch (name) {
      case 'stdout-baseline':
        extra = await pipeBaseline(mb, 'stdout');
        break;
      case 'stderr-baseline':
        extra = await pipeBaseline(mb, 'stderr');
        break;
      case 'stdout-line':
        extra = await agentStdout(mb, 'line');
        break;
      case 'stdout-json':
        extra = await agentStdout(mb, 'json');
        break;
      case 'stderr-progress':
        extra = await agentStderr(mb);
        break;
      case 'terminal-flood':
        extra = await terminalFlood(mb);
        break;
      default:
        throw new Error(`unknown scenario ${name}`);
    }
  });
  process.stdout.write(`RESULT ${JSON.stringify({ name, mb, ...cost, ...extra })}\n`);
  process.exit(0);
}

void main();
