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
