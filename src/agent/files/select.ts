/** Which file store a connection gets: the client's `fs/*` when it offers both methods. */
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { clientFileStore, type ClientFs } from './client';
import { localFileStore } from './local';
import type { FileStore } from './store';

export function clientOffersFs(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.fs?.readTextFile === true && capabilities.fs.writeTextFile === true;
}

/** The store of one session: through the client when it offers `fs/*`, else the local disk. */
export function fileStoreFor(throughClient: boolean, client: ClientFs, sessionId: string): FileStore {
  return throughClient ? clientFileStore(client, sessionId) : localFileStore;
}
