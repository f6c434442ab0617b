import * as acp from '@agentclientprotocol/sdk';
import { isAtLeast, OFF_THREAD_BYTES, WorkerParseError, type JsonWorker } from './jsonWorker';
import { MessageQueue } from './messageQueue';
import { JsonLineFilter, LineTooLongError, type JsonLine } from './ndjsonFilter';
import { SlicedFeed } from './slicedFeed';
import type { Logger } from '../base/log';

/**
 * Sees each JSON-RPC line sent to (`send`) or received from (`receive`) the agent. `isActive`
 * says whether it wants lines now: when it does not, they are not decoded for it (a 10 MB file's
 * `fs/*` message decoded only to be dropped cost the extension host ~30 ms in one turn).
 */
export type ProtocolTap = ((direction: 'send' | 'receive', line: string) => void) & { readonly isActive?: () => boolean };

function tapping(tap: ProtocolTap | undefined): tap is ProtocolTap {
  return tap !== undefined && (tap.isActive?.() ?? true);
}

/** The agent's stdout, as a Node readable gives it. */
export interface ByteSource {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The agent's stdin. Writing when the agent is gone must be a no-op, never a throw. */
export interface ByteSink {
  write(data: string | Uint8Array): void;
  end(): void;
}

export interface MessageStreamOptions {
  /** The agent's name, for log lines. */
  name: string;
  log: Logger;
  input: ByteSource;
  output: ByteSink;
  tap?: ProtocolTap;
  /** Largest message accepted; a longer line fails the stream with {@link LineTooLongError}. */
  maxMessageBytes?: number;
  /** Where huge messages are parsed and serialised; without one, everything runs here. */
  worker?: JsonWorker;
  /** Messages of at least this many bytes go to the worker. */
  offThreadBytes?: number;
}

const LOGGED_PREFIX_CHARS = 200;

/**
 * The ACP stream over an agent's stdio: newline-delimited JSON-RPC, each line decoded and parsed
 * once, each outgoing message serialised once, with no stream of bytes in between.
 *
 * The SDK's own `ndJsonStream` would split the lines again, decode them through a stream decoder
 * and parse each behind a promise or two; here the lines come from {@link JsonLineFilter}
 * (banners and debug prints skipped and logged) and go out a slice per event-loop turn through
 * {@link SlicedFeed}, parsed as they are delivered, and reach the SDK through a
 * {@link MessageQueue} (a web ReadableStream's per-message bookkeeping cost as much again).
 * What it keeps of the SDK's behaviour:
 * - a line that fails JSON.parse is logged, answered with JSON-RPC's parse error (`id: null`,
 *   as the SDK does) and skipped; the connection goes on;
 * - a line over `maxMessageBytes` fails the stream with {@link LineTooLongError} (the SDK then
 *   closes the connection, and AgentConnection stops the agent);
 * - the end of stdout closes the readable once every line before it is delivered; the SDK
 *   cancelling the readable (connection closed) stops delivery.
 * A message of a megabyte or more (a 10 MB file's `fs/write_text_file`, the answer to its
 * `fs/read_text_file`) is parsed or serialised on a worker thread when one is given: later lines
 * wait for it, so the order holds.
 */
export function messageStream(options: MessageStreamOptions): acp.Stream {
  const { name, log, input, output, tap, worker } = options;
  const offThreadBytes = options.offThreadBytes ?? OFF_THREAD_BYTES;
  const decoder = new TextDecoder();
  const filter = new JsonLineFilter((prefix, bytes) => {
    const size = bytes > prefix.length + 1 ? ` (${bytes} bytes)` : '';
    log.warn(`[${name}] skipped non-JSON stdout line${size}: ${truncate(prefix)}`);
  }, options.maxMessageBytes ?? acp.DEFAULT_MAX_MESSAGE_BYTES, worker ? offThreadBytes : Infinity);
  const offThread = (): JsonWorker | undefined => (worker?.available && !tapping(tap) ? worker : undefined);

  /** A huge message on its way to the worker and back: writes after it wait for it. */
  let writing: Promise<void> | undefined;
  const writeHere = (message: unknown): void => {
    const line = JSON.stringify(message);
    if (tapping(tap)) tap('send', line);
    output.write(`${line}\n`);
  };
  const sendNow = (message: unknown): Promise<void> | undefined => {
    const serialiser = offThread();
    if (!serialiser || !isAtLeast(message, offThreadBytes)) {
      writeHere(message);
      return undefined;
    }
    // The worker failed (not the message): serialise it here.
    return track(serialiser.stringify(message).then((bytes) => output.write(bytes), () => writeHere(message)));
  };
  const track = (write: Promise<void>): Promise<void> => {
    writing = write;
    const clear = () => {
      if (writing === write) writing = undefined;
    };
    write.then(clear, clear);
    return write;
  };
  /** Writes one message as one line, in the order sent. */
  const send = (message: unknown): Promise<void> | undefined => {
    if (!writing) return sendNow(message);
    const next = () => sendNow(message);
    return track(writing.then(next, next));
  };

  // False once the readable is closed, errored or cancelled: nothing more is delivered.
  let open = true;
  const readable = new MessageQueue<acp.AnyMessage>({
    start(controller) {
      /** Set when stdout ended or failed: the readable closes (or errors) once the lines before are delivered. */
      let ending: { error?: unknown } | undefined;
      const malformed = (line: JsonLine, reason: string): void => {
        const head = typeof line === 'string' ? line.slice(0, LOGGED_PREFIX_CHARS + 1) : decoder.decode(line.subarray(0, LOGGED_PREFIX_CHARS * 4));
        const bytes = typeof line === 'string' ? Buffer.byteLength(line) : line.length;
        // V8's parse errors quote the text around the fault, newline included: one log line.
        const why = truncate(reason.replace(/\s+/g, ' '), LOGGED_PREFIX_CHARS);
        log.warn(`[${name}] skipped a malformed JSON-RPC message (${bytes} bytes; ${why}): ${truncate(head, LOGGED_PREFIX_CHARS)}`);
        // As the SDK answers it: JSON-RPC's parse error, with no id to answer to.
        try {
          void send({ jsonrpc: '2.0', id: null, error: acp.RequestError.parseError().toErrorResponse() })?.catch(() => undefined);
        } catch {
          // The agent is gone: nothing to tell.
        }
      };
      const accept = (value: unknown, line: JsonLine): void => {
        if (!open) return;
        // A line the filter passes starts with `{`: it parses to an object or not at all.
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) controller.enqueue(value as acp.AnyMessage);
        else malformed(line, 'not a JSON object');
      };
      const parseHere = (line: JsonLine): void => {
        const text = typeof line === 'string' ? line : decoder.decode(line);
        if (tapping(tap)) tap('receive', text);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          malformed(line, error instanceof Error ? error.message : String(error));
          return;
        }
        accept(value, line);
      };
      const deliver = (line: JsonLine): Promise<void> | undefined => {
        if (!open) return undefined;
        // Only a huge line comes as bytes (see the filter's rawLineBytes).
        const parser = offThread();
        if (typeof line === 'string' || !parser) {
          parseHere(line);
          return undefined;
        }
        return parser.parse(line).then(
          (value) => accept(value, line),
          (error: unknown) => {
            if (!open) return;
            if (error instanceof WorkerParseError) malformed(line, error.message);
            // The worker failed, not the line: parse it here.
            else parseHere(line);
          },
        );
      };
      const finish = (): void => {
        if (!open || !ending) return;
        open = false;
        if (ending.error === undefined) controller.close();
        else controller.error(ending.error);
      };
      // Lines go to the SDK a slice per event-loop turn (see SlicedFeed); stdout stays paused
      // until a read's lines are all delivered, so a flooding agent waits in its pipe.
      const feed = new SlicedFeed<JsonLine>({
        deliver,
        // Characters for text (bytes for ASCII, near enough otherwise): a budget, not a limit.
        sizeOf: (line) => line.length,
        onDrained: () => {
          if (ending) finish();
          // The next read on a later turn: many chunks waiting in the pipe must not all land in this one.
          else if (open) setImmediate(() => input.resume());
        },
      });
      input.on('data', (chunk) => {
        if (!open || ending) return;
        let lines: JsonLine[];
        try {
          lines = filter.push(chunk);
        } catch (error) {
          if (!(error instanceof LineTooLongError)) throw error;
          // The SDK closes the connection with this error; AgentConnection then stops the agent.
          ending = { error };
          feed.push([]);
          return;
        }
        input.pause();
        feed.push(lines);
      });
      input.on('end', () => {
        if (!open || ending) return;
        ending = {};
        feed.push(filter.end());
      });
      input.on('error', (error) => {
        if (!open || ending) return;
        ending = { error };
        feed.push([]);
      });
    },
    cancel() {
      open = false;
    },
  });
  const writable = new WritableStream<acp.AnyMessage>({
    write: (message) => send(message),
    close: () => output.end(),
  });
  return { readable: readable.asReadableStream(), writable };
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
