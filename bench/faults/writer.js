// A flooding program: writes MB megabytes to stdout or stderr in 64 KB chunks, honouring
// backpressure, then exits with CODE. Modes: `plain` (x… lines of 1 KB), `line` (one line of x…
// without a newline until the end), `json` (one JSON message of that size), `progress` (a progress
// bar redrawn with \r, no newline at all).
const [mode, stream, mbText, codeText] = process.argv.slice(2);
const total = Number(mbText) * 2 ** 20;
const out = stream === 'stderr' ? process.stderr : process.stdout;
const CHUNK = 64 * 1024;
function body() {
  switch (mode) {
    case 'plain':
      return Buffer.from(('x'.repeat(1023) + '\n').repeat(CHUNK / 1024));
    case 'line':
    case 'json':
      return Buffer.alloc(CHUNK, 'x');
    case 'progress': {
      let s = '';
      for (let i = 0; s.length < CHUNK; i++) s += `\r${String(i % 100).padStart(3)}% [${'='.repeat(i % 40).padEnd(40)}]`;
      return Buffer.from(s.slice(0, CHUNK));
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}
const chunk = body();
let written = 0;
function write() {
  if (written === 0 && mode === 'json') out.write('{"jsonrpc":"2.0","method":"x/flood","params":{"pad":"');
  while (written < total) {
    written += chunk.length;
    if (!out.write(chunk)) return out.once('drain', write);
  }
  if (mode === 'json') out.write('"}}\n');
  else if (mode === 'line') out.write('\n');
  out.write('', () => process.exit(Number(codeText ?? 0)));
}
write();
