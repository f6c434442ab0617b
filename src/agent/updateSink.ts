import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { log } from './log';

/** Sends one `session/update` to the client; resolves once it is written. */
export type SendUpdate = (update: SessionUpdate) => Promise<void>;

/**
 * Sends a session's updates strictly in order without making producers wait: a process's output
 * chunks can be queued from a stream callback while the turn goes on.
 */
export class UpdateSink {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly sendUpdate: SendUpdate) {}

  send(update: SessionUpdate): void {
    this.tail = this.tail.then(() => this.sendUpdate(update)).catch((error: unknown) => log.warn('could not send session/update', error));
  }

  /** Resolves when everything sent so far has been written. */
  flush(): Promise<void> {
    return this.tail;
  }
}
