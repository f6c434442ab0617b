/**
 * Update ingestion: the extension's path (its own framing, then KeyedSerialQueue per session →
 * SessionState.apply, wired as AgentSessions wires it) against the SDK's raw dispatch of the same
 * stream to a no-op handler.
 *
 * Both run the SDK client (`acp.client()`) as `AgentConnection.start` sets it up: the SDK's session
 * router (which zod-parses every `session/update` for helpers ACP Native does not use) removed,
 * params taken raw. The raw baseline reads the bytes through the SDK's own `ndJsonStream`: the
 * SDK's framing and dispatch alone. "Ours" reads them as the extension does (AgentProcess.stream():
 * JsonLineFilter, SlicedFeed, one JSON.parse per line) and adds what the extension adds: its
 * validator (wire/updateShape.ts), the queue and the session state. Two more runs show the steps
 * before, in the same run: the same over the SDK's `ndJsonStream` ("sdk framing"), and that with
 * the SDK's router kept (its zod parse, then a light shape check).
 *
 * The agent side is the notifications' ndjson, pre-encoded and pushed in 64 KiB chunks, one per
 * macrotask, as reads of an agent's stdout arrive. Pre-encoding keeps the agent's own cost out of
 * the figures; one chunk per macrotask lets the core's 16 ms flush timer fire mid-stream as it
 * would on a real pipe.
 */
import * as acp from '@agentclientprotocol/sdk';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { removeSdkSessionRouter } from '../../src/extension/wire/agentConnection';
import { messageStream } from '../../src/extension/wire/messageStream';
import type { Logger } from '../../src/extension/base/log';
import { KeyedSerialQueue } from '../../src/extension/base/serialQueue';
import { checkSessionNotification } from '../../src/extension/wire/updateShape';
import { SessionState } from '../../src/extension/session/model/sessionState';
import { EarlyUpdates } from '../../src/extension/session/model/earlyUpdates';
import { UpdateRouter } from '../../src/extension/session/model/updateRouting';
import type { UpdateMix } from '../../harness/agents/lib/updateMix';

const CHUNK_BYTES = 64 * 1024;

export interface StreamRun {
  readonly ms: number;
  /** Coalesced change events the core emitted (0 for the raw dispatch). */
  readonly changeEvents: number;
  /** Updates those events covered (must equal N). */
  readonly updatesCovered: number;
  readonly toolCalls: number;
  readonly warnings: number;
}

/** The agent's stdout: the bytes in 64 KiB reads, each in its own macrotask; stays open at the end. */
function agentStdout(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Never closed: the end of input would close the connection under the last handlers.
        if (offset >= bytes.length) return new Promise<void>(() => undefined);
        await new Promise<void>((resolve) => setImmediate(resolve));
        controller.enqueue(bytes.subarray(offset, offset + CHUNK_BYTES));
        offset += CHUNK_BYTES;
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The same reads as a Node readable, as the extension gets an agent's stdout (a pipe's socket):
 * a 64 KiB chunk per macrotask, read only while the consumer has not paused it.
 */
function agentStdoutNode(bytes: Uint8Array): Readable {
  let offset = 0;
  return new Readable({
    highWaterMark: 0,
    read() {
      // Never ended, as above.
      if (offset >= bytes.length) return;
      setImmediate(() => {
        this.push(bytes.subarray(offset, offset + CHUNK_BYTES));
        offset += CHUNK_BYTES;
      });
    },
  });
}

const silent: Logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, show: () => undefined };

/**
 * The extension's own framing (wire/messageStream.ts: JsonLineFilter → SlicedFeed → one
 * JSON.parse per line → MessageQueue, read by the SDK), as `AgentProcess.stream()` builds it, over the same reads.
 */
function extensionFraming(bytes: Uint8Array): acp.Stream {
  return messageStream({ name: 'bench', log: silent, input: agentStdoutNode(bytes), output: { write: () => undefined, end: () => undefined } });
}

function discard(): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({ write: () => undefined });
}

export function encode(mix: UpdateMix): Uint8Array {
  return new TextEncoder().encode(mix.lines.map((l) => `${l}\n`).join(''));
}

/** Params as they came: no parsing (the extension's own check runs in its handler). */
const rawParams = (params: unknown): unknown => params;

/** Baseline: the SDK's framing and dispatch (its router removed, no parsing) to a handler that only counts. */
export async function runRaw(bytes: Uint8Array, count: number, framing: 'sdk' | 'extension' = 'sdk'): Promise<StreamRun> {
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const app = acp.client({ name: 'bench-raw' }).onNotification(acp.methods.client.session.update, rawParams, () => {
    if (++received === count) done();
  });
  if (!removeSdkSessionRouter(app)) throw new Error("the SDK's session router was not found");
  const start = performance.now();
  const connection = app.connect(framing === 'sdk' ? acp.ndJsonStream(discard(), agentStdout(bytes)) : extensionFraming(bytes));
  await finished;
  const ms = performance.now() - start;
  connection.close();
  return { ms, changeEvents: 0, updatesCovered: 0, toolCalls: 0, warnings: 0 };
}

/**
 * Ours: the extension's framing and the same dispatch into the session core, as `AgentProcess`,
 * `AgentConnection` and `AgentSessions.receiveUpdate` do it (its routing, session/model/updateRouting.ts,
 * runs here as is; the action log's arrival hook is not part of it). `sdk framing`: the same over
 * the SDK's `ndJsonStream` instead (the extension's path before its own framing). `before`: that, and the SDK's
 * router kept (its zod parse, then a light check).
 */
export async function runCore(bytes: Uint8Array, count: number, sessionId: string, variant: 'now' | 'sdk framing' | 'before' = 'now'): Promise<StreamRun> {
  const state = new SessionState({ sessionId, cwd: '/home/user/project' });
  const queue = new KeyedSerialQueue();
  // The extension's own routing (what `AgentSessions.receiveUpdate` calls), with its session map
  // and the updates-before-their-session holder; one agent, so no id aliases.
  const router = new UpdateRouter<'agent'>({
    queue,
    sessions: new Map([[sessionId, { state, connection: 'agent' }]]),
    early: new EarlyUpdates({ maxHeld: 1000, log: (message) => console.error(message) }),
    clientIdOf: (_connection, agentSessionId) => agentSessionId,
    onError: (id, error) => console.error(`update for session ${id} failed: ${String(error)}`),
  });
  let changeEvents = 0;
  let updatesCovered = 0;
  state.onDidChange((changes) => {
    changeEvents++;
    updatesCovered += changes.updates;
  });
  let received = 0;
  let done!: () => void;
  const allReceived = new Promise<void>((resolve) => (done = resolve));
  const app = acp.client({ name: 'bench-core' }).onNotification(acp.methods.client.session.update, rawParams, ({ params }) => {
    const checked = variant === 'before' ? lightCheck(params) : checkSessionNotification(params);
    if (!checked.ok) throw new Error(checked.problem.message);
    router.receive(checked.notification, 'agent');
    if (++received === count) done();
  });
  if (variant !== 'before' && !removeSdkSessionRouter(app)) throw new Error("the SDK's session router was not found");
  const start = performance.now();
  const connection = app.connect(variant === 'now' ? extensionFraming(bytes) : acp.ndJsonStream(discard(), agentStdout(bytes)));
  await allReceived;
  // As `AgentSessions.prompt` does when a turn ends: let queued updates land, deliver what is pending.
  await queue.idle(sessionId);
  state.flushNow();
  const ms = performance.now() - start;
  connection.close();
  const result = { ms, changeEvents, updatesCovered, toolCalls: state.toolCalls().length, warnings: state.warningCount };
  state.dispose();
  return result;
}

/** The check the extension ran before (the SDK's router had zod-parsed the update already). */
function lightCheck(params: unknown): ReturnType<typeof checkSessionNotification> {
  const p = params as { sessionId?: unknown; update?: { sessionUpdate?: unknown } } | null;
  if (typeof p?.sessionId !== 'string' || typeof p.update?.sessionUpdate !== 'string') {
    return { ok: false, problem: { kind: 'session/update', message: 'session/update needs a sessionId and an update' } };
  }
  return { ok: true, notification: params as acp.SessionNotification };
}

/** In-process, no SDK and no stream: the same parsed objects. */
export const inProcess = {
  noop(mix: UpdateMix): number {
    let sink = 0;
    const start = performance.now();
    for (const update of mix.updates) sink += update.sessionUpdate.length;
    const ms = performance.now() - start;
    if (sink < 0) console.log(sink); // keeps the loop from being optimised away
    return ms;
  },
  /** A replay's yardstick: the log read from a file and each line parsed, nothing else. */
  readParse(file: string): number {
    let sink = 0;
    const start = performance.now();
    for (const line of readFileSync(file, 'utf8').split('\n')) if (line) sink += (JSON.parse(line) as { method: string }).method.length;
    const ms = performance.now() - start;
    if (sink < 0) console.log(sink);
    return ms;
  },
  parse(mix: UpdateMix): number {
    let sink = 0;
    const start = performance.now();
    for (const line of mix.lines) sink += (JSON.parse(line) as { method: string }).method.length;
    const ms = performance.now() - start;
    if (sink < 0) console.log(sink);
    return ms;
  },
  /** The extension's validator (wire/updateShape.ts) over each parsed notification. */
  check(mix: UpdateMix): number {
    const notifications = mix.updates.map((update) => ({ sessionId: mix.sessionId, update }));
    let sink = 0;
    const start = performance.now();
    for (const notification of notifications) if (checkSessionNotification(notification).ok) sink++;
    const ms = performance.now() - start;
    if (sink !== notifications.length) throw new Error(`validator rejected ${notifications.length - sink} updates`);
    return ms;
  },
  apply(mix: UpdateMix): number {
    const state = new SessionState({ sessionId: mix.sessionId, cwd: '/home/user/project' });
    const start = performance.now();
    for (const update of mix.updates) state.apply(update);
    state.flushNow();
    const ms = performance.now() - start;
    state.dispose();
    return ms;
  },
  async queueApply(mix: UpdateMix): Promise<number> {
    const state = new SessionState({ sessionId: mix.sessionId, cwd: '/home/user/project' });
    const queue = new KeyedSerialQueue();
    const start = performance.now();
    for (const update of mix.updates) queue.submit(mix.sessionId, () => state.apply(update), (error) => console.error(`update failed: ${String(error)}`));
    await queue.idle(mix.sessionId);
    state.flushNow();
    const ms = performance.now() - start;
    state.dispose();
    return ms;
  },
};
