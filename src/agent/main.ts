/**
 * Entry point of the bundled agent (dist/agent.js): a plain Node program speaking ACP v1 over
 * stdio. stdout carries nothing but protocol messages; everything else goes to stderr.
 */
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { version } from '../../package.json';
import { LlmBrain } from './brains/llm/brain';
import { ScriptedBrain } from './brains/scripted/brain';
import type { Brain } from './brains/types';
import { parseConfig, type AgentConfig } from './config';
import { log } from './log';
import { createAgentServer } from './server';
import { guardLines } from './stdio/lineGuard';

// Defensive: a stray console.log from any dependency would corrupt the protocol stream.
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

function createBrain(config: AgentConfig): Brain {
  if (config.brain === 'llm' && config.llm !== undefined) return new LlmBrain(config.llm);
  return new ScriptedBrain();
}

async function main(): Promise<void> {
  const parsed = parseConfig(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.message}\n`);
    process.exit(parsed.exitCode);
  }
  const { config } = parsed;
  log.info(`v${version}, ${config.brain} brain, sessions in ${config.stateDir}`);

  const server = createAgentServer({ config, brain: createBrain(config), version });
  const maxMessageBytes = acp.DEFAULT_MAX_MESSAGE_BYTES;
  // A message over the limit is answered and skipped here, before the SDK's reader would end the
  // connection on it.
  const input = (Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>).pipeThrough(
    guardLines({
      maxMessageBytes,
      // One write per whole line: Node keeps the order of writes, so this never splits one of the SDK's.
      sendToClient: (message) => process.stdout.write(`${JSON.stringify(message)}\n`),
      warn: (message) => log.warn(message),
    }),
  );
  const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, input, { maxMessageBytes });
  const connection = server.app.connect(stream);

  let stopping = false;
  const stop = async (why: string, code = 0): Promise<void> => {
    if (stopping) return;
    stopping = true;
    if (code === 0) log.info(`stopping: ${why}`);
    else log.error(`stopping: ${why}`);
    await server.closeAll();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // The client vanished (EPIPE): nobody is listening any more.
  process.stdout.on('error', () => void stop('stdout closed'));
  // Background tasks run in their own process groups: never leave them behind on a crash.
  process.on('uncaughtException', (error) => {
    log.error('uncaught exception', error);
    void server.closeAll().finally(() => process.exit(1));
  });
  // The client closing our stdin is the normal way to end; a connection that broke (unreadable
  // input) is not, and must not look like it.
  await connection.closed;
  const broken = brokenConnection(connection.signal.reason);
  if (broken) await stop(broken, 1);
  else await stop('stdin closed');
}

/** Why the connection broke, or undefined when it simply closed (stdin ended). */
function brokenConnection(reason: unknown): string | undefined {
  if (reason instanceof Error && reason.message !== 'ACP connection closed') return `the connection broke: ${reason.message}`;
  return undefined;
}

main().catch((error: unknown) => {
  log.error('fatal', error);
  process.exit(1);
});
