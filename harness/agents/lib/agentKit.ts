// What the test agents of harness/agents share: the SDK's stream over the process's stdio, and
// sending many notifications as fast as the pipe takes them, flat out or paced.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** The agent's end of stdio as the SDK's ndjson stream (what `.connect()` takes). */
export function stdioStream(): ReturnType<typeof acp.ndJsonStream> {
  return acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
}

/**
 * Notifications in flight: at most `size` written before waiting for the pipe to take them all,
 * so a flood neither waits on each message nor queues without bound.
 */
export class SendWindow {
  private inFlight: Promise<void>[] = [];

  constructor(private readonly size: number) {}

  /** Adds a sent notification; true when the window is full (then `await drain()`). */
  add(sent: Promise<void>): boolean {
    this.inFlight.push(sent);
    return this.inFlight.length >= this.size;
  }

  async drain(): Promise<void> {
    const sent = this.inFlight;
    this.inFlight = [];
    await Promise.all(sent);
  }
}

/**
 * Paces item `i` of a run that started at `start` (performance.now()) to `perSecond` items a
 * second: every 10 items, when ahead, drains the window and sleeps until the item is due. 0 is
 * flat out.
 */
export async function pace(window: SendWindow, i: number, start: number, perSecond: number): Promise<void> {
  if (perSecond <= 0 || i % 10 !== 0) return;
  const due = start + (i / perSecond) * 1000;
  if (due <= performance.now()) return;
  await window.drain();
  await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
}

/**
 * The agent app of a bench agent named `name`: `initialize` answered, `session/new` gives
 * `<prefix>_session_N` and remembers its cwd in `sessions`, `session/cancel` is ignored. The
 * caller adds its prompt (and load) handlers, then connects it to `stdioStream()`.
 */
export function benchAgent(name: string, options: { prefix: string; loadSession: boolean; sessions: Map<string, string> }): ReturnType<typeof acp.agent> {
  let next = 1;
  return acp
    .agent({ name })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { loadSession: options.loadSession },
      agentInfo: { name, version: '0.0.0' },
    }))
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const sessionId = `${options.prefix}_session_${next++}`;
      options.sessions.set(sessionId, params.cwd);
      return { sessionId };
    })
    .onNotification(acp.methods.agent.session.cancel, () => undefined);
}

/** A prompt's text blocks, joined (what the bench agents parse their commands from). */
export function promptText(prompt: readonly acp.ContentBlock[]): string {
  return prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
