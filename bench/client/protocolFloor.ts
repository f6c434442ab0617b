/**
 * The protocol floor of the storm benchmark, outside VS Code: the same built storm agent over a
 * real pipe to a bare SDK client whose `session/update` handler is a no-op. What it costs to parse
 * and validate the storm's messages at all, before the extension does anything with them.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';

export interface FloorRun {
  readonly prompt: string;
  readonly ms: number;
  /** CPU of this (client) process over the prompt. */
  readonly cpuMs: number;
  readonly updates: number;
}

/** Runs each prompt `repetitions` times (alternating), after one warm-up of each. */
export async function protocolFloor(agentPath: string, prompts: readonly string[], repetitions: number): Promise<FloorRun[]> {
  const child = spawn(process.execPath, [agentPath], { stdio: ['pipe', 'pipe', 'inherit'] });
  let updates = 0;
  const connection = acp
    .client({ name: 'bench-floor' })
    .onNotification(acp.methods.client.session.update, () => {
      updates++;
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  try {
    await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd: process.cwd(), mcpServers: [] });
    const once = async (prompt: string): Promise<FloorRun> => {
      updates = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: prompt }] });
      const ms = performance.now() - start;
      const used = process.cpuUsage(cpu);
      return { prompt, ms, cpuMs: (used.user + used.system) / 1000, updates };
    };
    for (const prompt of prompts) await once(prompt);
    const runs: FloorRun[] = [];
    for (let i = 0; i < repetitions; i++) {
      const order = i % 2 === 0 ? prompts : [...prompts].reverse();
      for (const prompt of order) runs.push(await once(prompt));
    }
    return runs;
  } finally {
    connection.close();
    child.kill();
  }
}
