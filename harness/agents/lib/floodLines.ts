/**
 * The output of the terminal floods (issue 15): numbered lines of 128 bytes, the last one a marker,
 * so a test can tell that what was kept is the tail, whole and in order. The same bytes come from a
 * real process (`floodWriterScript`, for client terminals and the bare-pipe baseline) and from an
 * agent streaming them as display-terminal output (`floodChunk`).
 */

export const FLOOD_LINE_BYTES = 128;

/** The flood's last line: what every kept tail must end with. */
export const FLOOD_LAST_LINE = `FLOOD-END${'.'.repeat(FLOOD_LINE_BYTES - 10)}\n`;

/** Line `n` (0-based) of a flood: its number, then filler; 128 bytes with the `\n`. */
export function floodLine(n: number): string {
  return `${String(n).padStart(10, '0')} ${'y'.repeat(FLOOD_LINE_BYTES - 12)}\n`;
}

/** Bytes [offset, offset + length) of a flood of `total` bytes (all multiples of 128). */
export function floodChunk(offset: number, length: number, total: number): string {
  const lastLine = total / FLOOD_LINE_BYTES - 1;
  let out = '';
  for (let n = offset / FLOOD_LINE_BYTES, end = (offset + length) / FLOOD_LINE_BYTES; n < end; n++) out += n === lastLine ? FLOOD_LAST_LINE : floodLine(n);
  return out;
}

/**
 * A Node program (for `node -e`) writing `mb` MiB of flood lines to stdout in 64 KiB writes,
 * honouring backpressure. Self-contained: the functions above, inlined.
 */
export function floodWriterScript(mb: number): string {
  return `const total = ${mb * 2 ** 20};
const lineBytes = ${FLOOD_LINE_BYTES};
const last = ${JSON.stringify(FLOOD_LAST_LINE)};
const filler = 'y'.repeat(lineBytes - 12);
let offset = 0;
function next() {
  const end = Math.min(total, offset + 65536);
  let out = '';
  for (let n = offset / lineBytes; n < end / lineBytes; n++) out += n === total / lineBytes - 1 ? last : String(n).padStart(10, '0') + ' ' + filler + '\\n';
  offset = end;
  return out;
}
(function write() {
  while (offset < total) if (!process.stdout.write(next())) return process.stdout.once('drain', write);
})();`;
}

/**
 * Whether `kept` is the exact tail of a flood of `total` bytes: it ends with the last line, every
 * whole line before it is the right line in order, and only the first may be cut (at its start).
 */
export function isFloodTail(kept: string, total: number, lineEnd = '\n'): boolean {
  const lines = kept.split(lineEnd);
  if (lines.pop() !== '' || lines.pop() !== FLOOD_LAST_LINE.slice(0, -1)) return false;
  let expected = total / FLOOD_LINE_BYTES - 2;
  for (let i = lines.length - 1; i >= 0; i--, expected--) {
    const whole = floodLine(expected).slice(0, -1);
    if (lines[i] === whole) continue;
    // Only the first line may be a cut one, and only its end kept.
    return i === 0 && lines[i].length < whole.length && whole.endsWith(lines[i]);
  }
  return true;
}

/**
 * A Node program (for `node -e`) writing the display-terminal flood as the flood agent sends it:
 * one JSON-RPC `session/update` line per `chunkKb` KiB of flood lines, in `_meta.terminal_output`
 * (`floodChunk`, inlined), honouring backpressure. What any client reading that agent must at
 * least do with it (split the lines, decode and parse each) is the display terminal's floor.
 */
export function floodMessagesWriterScript(mb: number, chunkKb = 32): string {
  return `const total = ${mb * 2 ** 20};
const piece = ${chunkKb * 1024};
const lineBytes = ${FLOOD_LINE_BYTES};
const last = ${JSON.stringify(FLOOD_LAST_LINE)};
const filler = 'y'.repeat(lineBytes - 12);
let offset = 0;
function next() {
  const end = Math.min(total, offset + piece);
  let data = '';
  for (let n = offset / lineBytes; n < end / lineBytes; n++) data += n === total / lineBytes - 1 ? last : String(n).padStart(10, '0') + ' ' + filler + '\\n';
  offset = end;
  const update = { sessionUpdate: 'tool_call_update', toolCallId: 'display_1', _meta: { terminal_output: { terminal_id: 'display_1', data } } };
  return JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'flood_session_1', update } }) + '\\n';
}
(function write() {
  while (offset < total) if (!process.stdout.write(next())) return process.stdout.once('drain', write);
})();`;
}
