/**
 * What the agent does with a message from the client too big to read: from the message's head
 * (its first bytes), whom to tell and what. A request gets an error answer, a response fails the
 * agent's own request it answers, and what has no readable id is only logged.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { JsonHead } from './jsonHead';

export type OversizedAction =
  /** An error answer to the client's request, written to the client. */
  | { kind: 'answer'; response: acp.AnyResponse }
  /** The client answered one of the agent's requests too big: that request fails with this. */
  | { kind: 'fail'; response: acp.AnyResponse }
  /** Nobody to answer: a notification, or an id that could not be read. */
  | { kind: 'skip' };

export interface OversizedOutcome {
  action: OversizedAction;
  /** One sentence for the log. */
  note: string;
}

export function oversizedOutcome(head: JsonHead, bytes: number, maxBytes: number): OversizedOutcome {
  const size = `${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} limit of ACP messages`;
  const skipped = `skipped a message of ${size}`;
  const { id, method, keys } = head;
  const isCall = keys.includes('method') || keys.includes('params');
  const isResponse = !isCall && (keys.includes('result') || keys.includes('error'));
  const data = { bytes, maxMessageBytes: maxBytes };

  if (id !== undefined && isCall) {
    const error = acp.RequestError.invalidRequest(data, `the message is ${size}`).toErrorResponse();
    return { action: { kind: 'answer', response: { jsonrpc: '2.0', id, error } }, note: `${skipped}: answered request ${String(id)}${method ? ` (${method})` : ''} with an error` };
  }
  if (id !== undefined && isResponse) {
    const error = acp.RequestError.invalidRequest(data, `the client's response is ${size}`).toErrorResponse();
    return { action: { kind: 'fail', response: { jsonrpc: '2.0', id, error } }, note: `${skipped}: the client's response to request ${String(id)}, which fails` };
  }
  if (keys.includes('id')) return { action: { kind: 'skip' }, note: `${skipped}: its id could not be read, so it goes unanswered` };
  if (isCall) {
    const what = method ? `the ${method} notification` : 'a notification';
    return { action: { kind: 'skip' }, note: `${skipped}: ${what} (no id before its params), not answered` };
  }
  return { action: { kind: 'skip' }, note: `${skipped}: no JSON-RPC id in its first bytes, so it goes unanswered` };
}

function formatBytes(bytes: number): string {
  const mib = bytes / 2 ** 20;
  return mib >= 1 ? `${bytes} bytes (${Number.isInteger(mib) ? mib : mib.toFixed(1)} MiB)` : `${bytes} bytes`;
}
