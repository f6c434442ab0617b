// A test agent that plays what third-party agents send, to prove the client renders them right.
// It is a real ACP agent on stdio (the SDK), started by the extension through `acpNative.agents`.
// Each prompt names a scenario on its first line:
//   claude-edit ABS_PATH [GATE] Claude-style: empty call, call-time snippet, file written by the
//                               agent itself, then the content REPLACED by applied hunks; with
//                               GATE (a file path) it waits for that file to exist before applying,
//                               so a test can look at the snippet first
//   early-output                `_meta.terminal_output` arrives before the `terminal_info` that
//                               announces the terminal
//   retitled-terminal GATE      a display terminal announced with the title "Terminal" (as Claude's
//                               adapter does while the command streams in), retitled to
//                               "echo retitled" once GATE (a file path) exists, then its output and exit
//   absolute-title ABS_PATH     a read whose title carries the absolute path
//   client-terminal-split       `terminal/create` of a command cutting multi-byte characters between
//                               stdout writes, a stderr line between each piece
//   client-terminal             `terminal/create` with a small outputByteLimit, then
//                               wait_for_exit, output, release
//   crash                       says why on stderr, starts a tool call, then exits with code 7
//   garbage                     prints non-JSON lines on stdout, then answers normally
//   fs-read PATH [LINE [LIMIT]] `fs/read_text_file`; the result (or error) is the call's rawOutput
//   fs-write PATH               `fs/write_text_file` with the rest of the prompt (after the first
//                               line) as content; the result (or error) is the call's rawOutput
//   fs-write-twice PATH         two concurrent writes, "first" then "second"
//   rewrite-in-place PATH FROM TO  an edit the agent makes itself, in place (no diff reported): a
//                               tool call naming PATH, a permission request, then the file's bytes
//                               rewritten with every FROM replaced by TO (latin1, so any bytes stay)
//   fs-rewrite PATH FROM TO     `fs/write_text_file` of the file with every FROM replaced by TO
//                               (a whole-file rewrite without a prompt the size of the file)
//   cwd-outside PATH            `terminal/create` with a cwd; the result (or error) as rawOutput
//   long-terminal               `terminal/create` of a command that runs for a minute, shown in a
//                               tool call; reports how it ended (wait_for_exit) as rawOutput
//   unknown-method              calls a client method that does not exist; the error as rawOutput
//   crash-with-terminal         starts a long client terminal shown in a tool call, then exits
//   fs-write-cancel PATH GATE   `fs/write_text_file` (rest of the prompt as content), cancelled with
//                               `$/cancel_request` once GATE (a file path) exists; the result as rawOutput
//   terminal-create-cancel CWD GATE  `terminal/create` (`echo started`) in CWD, cancelled once GATE
//                               exists; the result as rawOutput
//   fs-write-spellings P1 P2 …  concurrent writes of "write N\n" to each spelling; all results as rawOutput
//   permission-no-options       `session/request_permission` with `options: []`; the result as rawOutput
//   phantom-update              sends updates for a session id nobody created
//   huge-line MB                writes one JSON message of MB megabytes on stdout (over the limit)
//   stderr-progress MB          writes MB megabytes of a `\r` progress bar on stderr, no newline
//   terminal-flood MB           `terminal/create` of a command printing MB megabytes (default
//                               limit); reports the output size and truncation as rawOutput
//   echo-blocks                 answers with a JSON line per prompt block (type, mimeType, uri,
//                               name, size) so a test sees what reached the agent
//   ask-form                    `elicitation/create` (form: name, count, color, confirm); the
//                               answer comes back as "elicitation: {json}"
//   ask-url URL                 `elicitation/create` (url); the answer as "elicitation: {json}"
//   ask-url-complete URL GATE   the same, and once GATE (a file path) exists `elicitation/complete`
//                               before anyone answered (a device code entered on a phone)
//   show-image                  an agent message and a tool result that carry a PNG image block
//   ask-permission TITLE [GATE] `session/request_permission` (allow once / reject once) for a call
//                               titled TITLE (once GATE, a file path, exists); the outcome as
//                               rawOutput and as "permission: {json}"
//   wait-cancel                 a tool call that runs until `session/cancel` names this session,
//                               then the turn ends `cancelled` ("cancelled here" is said first)
// session/new sends `available_commands_update` (a `/early` command) BEFORE its response, as real
// agents do.
// Agents that change files themselves, reported as Claude's adapter does (action log tests):
//   edit-lines ABS_PATH N,N,..  Claude's Edit of those lines (1-based; " (edited)" appended):
//                               empty call, call-time snippet, a permission request with it, the
//                               write after the answer, then the applied hunks (±3 context lines)
//                               and one location per hunk
//   edit-lines-late ABS_PATH N,.. the same edit written first and reported only afterwards: one
//                               completed `tool_call` with the applied hunks
//   edit-lines-fast ABS_PATH N,.. the same edit as in Claude's "accept edits" mode: no question,
//                               written right after the snippet is sent (a race with the client's read)
//   write-file ABS_PATH         Claude's Write (`oldText: null`), the rest of the prompt as content;
//                               asks, writes, then sends `originalFile` in `_meta.claudeCode`
//   delete-file ABS_PATH        a `delete` call with a location, asks, then removes the file
//   shell COMMAND…              runs `sh -c COMMAND` itself as an execute call (display terminal)
// Started with `--protocol-version N`, it answers `initialize` with that version; with
// `--load-session` it offers `session/load` (replaying nothing).
// With `--prompt-capabilities image,embeddedContext` it advertises those prompt capabilities;
// with `--config-options` its sessions have legacy modes and configOptions (a mode and a model
// option, as Claude's and Codex's adapters send).
// With `--mcp-http` it advertises `mcpCapabilities.http`; with `--record-mcp FILE` it writes the
// `mcpServers` of each `session/new` to FILE (a JSON array, one entry per session). With
// `--session-prefix P` its session ids start with P. With `--additional-directories` it advertises
// `sessionCapabilities.additionalDirectories`; `session-directories` reports, as a call's
// rawOutput, the `additionalDirectories` each session/new and session/load brought. With
// `--delete-sessions` it advertises `session/delete`; `deleted-sessions` reports those deleted.
// With `--resume-sessions` it advertises `session/resume` (reported by `session-directories` as
// method `resume`); `--refuse-resume` also advertises it but answers every resume with an error.
// `--refuse-delete` advertises `session/delete` and answers it with an error.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { structuredPatch } from 'diff';
import { stdioStream } from './lib/agentKit';

type Client = acp.AgentContext;
let nextId = 1;

function update(client: Client, sessionId: string, u: acp.SessionUpdate): Promise<void> {
  return client.notify(acp.methods.client.session.update, { sessionId, update: u });
}

/** Asks Yes (allow once) / No about a call; true only for Yes. */
async function allowedOnce(client: Client, sessionId: string, toolCall: acp.ToolCallUpdate): Promise<boolean> {
  const answer = await client.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall,
    options: [
      { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
      { optionId: 'reject', name: 'No', kind: 'reject_once' },
    ],
  });
  return answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'allow-once';
}

async function waitForFile(gate: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(gate)) {
    if (Date.now() > deadline) throw new Error(`gate ${gate} never appeared`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function claudeEdit(client: Client, sessionId: string, file: string, cwd: string, gate?: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const rel = path.relative(cwd, file);
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Edit', kind: 'edit', status: 'pending', rawInput: {}, content: [], locations: [] });
  const before = fs.readFileSync(file, 'utf8');
  const after = before.replace('Hello', 'Hi').replace('Goodbye', 'See you');
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    title: `Edit ${rel}`,
    status: 'in_progress',
    rawInput: { file_path: file, old_string: 'Hello', new_string: 'Hi', replace_all: false },
    content: [{ type: 'diff', path: file, oldText: 'Hello', newText: 'Hi' }],
    locations: [{ path: file }],
  });
  if (gate) await waitForFile(gate);
  fs.writeFileSync(file, after);
  // Claude uses 3 context lines; 1 keeps the two changes of the small fixture file in two hunks.
  const patch = structuredPatch(file, file, before, after, '', '', { context: 1 });
  const content: acp.ToolCallContent[] = patch.hunks.map((h) => ({
    type: 'diff',
    path: file,
    oldText: h.lines.filter((l) => !l.startsWith('+')).map((l) => l.slice(1)).join('\n'),
    newText: h.lines.filter((l) => !l.startsWith('-')).map((l) => l.slice(1)).join('\n'),
  }));
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content,
    locations: patch.hunks.map((h) => ({ path: file, line: h.newStart })),
  });
}

/** The Claude-style hunks of a change: whole lines without the final newline, ±3 context. */
function appliedHunks(file: string, before: string, after: string): { content: acp.ToolCallContent[]; locations: acp.ToolCallLocation[] } {
  const patch = structuredPatch(file, file, before, after, '', '', { context: 3 });
  return {
    content: patch.hunks.map((h) => ({
      type: 'diff',
      path: file,
      oldText: h.lines.filter((l) => !l.startsWith('+') && !l.startsWith('\\')).map((l) => l.slice(1)).join('\n'),
      newText: h.lines.filter((l) => !l.startsWith('-') && !l.startsWith('\\')).map((l) => l.slice(1)).join('\n'),
    })),
    locations: patch.hunks.map((h) => ({ path: file, line: h.newStart })),
  };
}

function editedLines(text: string, lineNumbers: number[]): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return text
    .split(eol)
    .map((line, i) => (lineNumbers.includes(i + 1) ? `${line} (edited)` : line))
    .join(eol);
}

async function editLines(client: Client, sessionId: string, file: string, cwd: string, lines: number[], mode: 'ask' | 'late' | 'fast'): Promise<string> {
  const toolCallId = `toolu_${nextId++}`;
  const rel = path.relative(cwd, file);
  const before = fs.readFileSync(file, 'utf8');
  const after = editedLines(before, lines);
  const first = before.split(/\r?\n/)[lines[0] - 1];
  if (mode === 'late') {
    fs.writeFileSync(file, after);
    await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Edit ${rel}`, kind: 'edit', status: 'completed', ...appliedHunks(file, before, after) });
    return 'written';
  }
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Edit', kind: 'edit', status: 'pending', rawInput: {}, content: [], locations: [] });
  const snippet: acp.ToolCallContent[] = [{ type: 'diff', path: file, oldText: first, newText: `${first} (edited)` }];
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, title: `Edit ${rel}`, content: snippet, locations: [{ path: file }] });
  if (mode === 'fast') {
    fs.writeFileSync(file, after);
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...appliedHunks(file, before, after) });
    return 'written';
  }
  if (!(await allowedOnce(client, sessionId, { toolCallId, title: `Edit ${rel}`, kind: 'edit', status: 'pending', content: snippet, locations: [{ path: file }] }))) {
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return 'refused';
  }
  fs.writeFileSync(file, after);
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, ...appliedHunks(file, before, after) });
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  return 'written';
}

async function rewriteInPlace(client: Client, sessionId: string, file: string, cwd: string, from: string, to: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const title = `Edit ${path.relative(cwd, file)}`;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'edit', status: 'pending', locations: [{ path: file }] });
  if (!(await allowedOnce(client, sessionId, { toolCallId, title, kind: 'edit', status: 'pending', locations: [{ path: file }] }))) {
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return;
  }
  // In place (same inode, truncated then written), as a shell's `>` or an editor's save would.
  fs.writeFileSync(file, fs.readFileSync(file, 'latin1').replaceAll(from, to), 'latin1');
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
}

async function writeFile(client: Client, sessionId: string, file: string, cwd: string, text: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const existed = fs.existsSync(file);
  const original = existed ? fs.readFileSync(file, 'utf8') : null;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Preparing file…', kind: 'edit', status: 'pending', rawInput: {}, content: [], locations: [] });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    title: `Write ${path.relative(cwd, file)}`,
    content: [{ type: 'diff', path: file, oldText: null, newText: text }],
    locations: [{ path: file }],
  });
  const toolCall: acp.ToolCallUpdate = { toolCallId, title: `Write ${path.relative(cwd, file)}`, kind: 'edit', status: 'pending', content: [{ type: 'diff', path: file, oldText: null, newText: text }], locations: [{ path: file }] };
  if (!(await allowedOnce(client, sessionId, toolCall))) {
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    _meta: { claudeCode: { toolName: 'Write', toolResponse: { type: existed ? 'update' : 'create', filePath: file, content: text, originalFile: original } } },
  });
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
}

/** One call proposing two new files (two diffs, nothing written): its card opens as a multi-diff editor. */
async function proposeTwoFiles(client: Client, sessionId: string, first: string, second: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const content: acp.ToolCallContent[] = [first, second].map((file) => ({ type: 'diff', path: file, oldText: null, newText: `${path.basename(file)}\n` }));
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Propose two files', kind: 'edit', status: 'completed', content, locations: [] });
}

async function deleteFile(client: Client, sessionId: string, file: string, cwd: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const title = `Delete ${path.relative(cwd, file)}`;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'delete', status: 'pending', locations: [{ path: file }] });
  if (!(await allowedOnce(client, sessionId, { toolCallId, title, kind: 'delete', status: 'pending', locations: [{ path: file }] }))) {
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return;
  }
  fs.rmSync(file);
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
}

async function shell(client: Client, sessionId: string, cwd: string, command: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: command,
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: toolCallId }],
    _meta: { terminal_info: { terminal_id: toolCallId, cwd } },
  });
  const result = spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8' });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    _meta: { terminal_output: { terminal_id: toolCallId, data: `${result.stdout}${result.stderr}` } },
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: result.status === 0 ? 'completed' : 'failed',
    _meta: { terminal_exit: { terminal_id: toolCallId, exit_code: result.status, signal: result.signal } },
  });
}

async function retitledTerminal(client: Client, sessionId: string, cwd: string, gate: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const terminalId = `term_${nextId++}`;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'Terminal',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
    _meta: { terminal_info: { terminal_id: terminalId, cwd } },
  });
  await waitForFile(gate);
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, title: 'echo retitled' });
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, _meta: { terminal_output: { terminal_id: terminalId, data: 'retitled\n' } } });
  await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', _meta: { terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null } } });
}

async function earlyOutput(client: Client, sessionId: string, cwd: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const terminalId = `term_${nextId++}`;
  // Output first, for a tool call and terminal nobody has announced yet.
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    _meta: { terminal_output: { terminal_id: terminalId, data: 'early line\n' } },
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'echo early; echo late',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
    _meta: { terminal_info: { terminal_id: terminalId, cwd } },
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    _meta: { terminal_output: { terminal_id: terminalId, data: 'late line\n' } },
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    _meta: { terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null } },
  });
}

async function absoluteTitle(client: Client, sessionId: string, file: string): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Read ${file}`,
    kind: 'read',
    status: 'completed',
    locations: [{ path: file, line: 3 }],
    content: [{ type: 'content', content: { type: 'text', text: fs.readFileSync(file, 'utf8') } }],
  });
}

const FIFTY_LINES = "for (let i = 1; i <= 50; i++) console.log('line ' + i + ' é漢'); process.exit(4)";
/**
 * Multi-byte characters cut between stdout writes, with a stderr line between each piece: a
 * client that splices the two streams' bytes shows U+FFFD instead of the characters.
 */
const SPLIT_CHARACTERS = `const out = Buffer.from('A é漢😀 Z\\n');
const cuts = [3, 6, 10, 13, out.length];
let from = 0;
(function next(i) {
  if (i === cuts.length) return;
  process.stdout.write(out.subarray(from, cuts[i]), () => process.stderr.write('E\\n', () => setTimeout(() => next(i + 1), 20)));
  from = cuts[i];
})(0);`;

async function clientTerminal(client: Client, sessionId: string, cwd: string, script = FIFTY_LINES, outputByteLimit = 200): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const { terminalId } = await client.request(acp.methods.client.terminal.create, {
    sessionId,
    command: process.execPath,
    args: ['-e', script],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    cwd,
    outputByteLimit,
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: 'Print fifty lines',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
  });
  const exit = await client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId });
  const out = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
  await client.request(acp.methods.client.terminal.release, { sessionId, terminalId });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: exit.exitCode === 0 ? 'completed' : 'failed',
    rawOutput: { output: out.output, truncated: out.truncated, exitCode: exit.exitCode, bytes: Buffer.byteLength(out.output) },
  });
}

/** Reports what a client request gave as the rawOutput of a completed (or failed) tool call. */
async function report(client: Client, sessionId: string, title: string, run: () => Promise<unknown>): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title, kind: 'other', status: 'in_progress' });
  try {
    const result = await run();
    await update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', rawOutput: { ok: true, result } });
  } catch (error) {
    const e = error as { code?: number; message?: string };
    await update(client, sessionId, {
      sessionUpdate: 'tool_call_update',
      toolCallId,
      status: 'failed',
      rawOutput: { ok: false, code: e.code, message: e.message ?? String(error) },
    });
  }
}

async function crash(client: Client, sessionId: string): Promise<never> {
  process.stderr.write('boom: the test agent crashes on purpose\n');
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId: `toolu_${nextId++}`, title: 'About to crash', status: 'in_progress' });
  await new Promise((r) => setTimeout(r, 50));
  process.exit(7);
}

function protocolVersionArg(): number | undefined {
  const i = process.argv.indexOf('--protocol-version');
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
}

async function crashWithTerminal(client: Client, sessionId: string, cwd: string): Promise<never> {
  const { terminalId } = await client.request(acp.methods.client.terminal.create, {
    sessionId,
    command: process.execPath,
    args: ['-e', "console.log('long job started'); setTimeout(() => {}, 60000)"],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    cwd,
  });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId: `toolu_${nextId++}`,
    title: 'A long job',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
  });
  // Die only once the command has really started (its first line reached the client), however
  // slow the machine: the test checks that the client kills a running command.
  for (;;) {
    const { output } = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
    if (output.includes('long job started')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  process.exit(9);
}

/** A client terminal printing `mb` megabytes, shown in a tool call whose rawOutput says what terminal/output kept. */
async function terminalFlood(client: Client, sessionId: string, cwd: string, mb: number): Promise<void> {
  const toolCallId = `toolu_${nextId++}`;
  const script = `const b = Buffer.alloc(65536, 'y'); let n = ${mb * 16}; (function w() { while (n-- > 0) if (!process.stdout.write(b)) return process.stdout.once('drain', w); })()`;
  const { terminalId } = await client.request(acp.methods.client.terminal.create, {
    sessionId,
    command: process.execPath,
    args: ['-e', script],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    cwd,
  });
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Flood ${mb} MB`, kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
  const exit = await client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId });
  const out = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    rawOutput: { exitCode: exit.exitCode, bytes: Buffer.byteLength(out.output), truncated: out.truncated },
  });
}

/** Writes `head`, then about MB megabytes of filler (64 KB pieces, honouring backpressure), then `tail`. */
async function writeHuge(out: NodeJS.WritableStream, head: string, mb: number, tail: string, piece: (i: number) => string = () => 'x'): Promise<void> {
  let chunk = '';
  for (let i = 0; chunk.length < 65536; i++) chunk += piece(i);
  const buffer = Buffer.from(chunk.slice(0, 65536));
  const write = (data: Buffer | string) => (out.write(data) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(head);
  for (let written = 0; written < mb * 2 ** 20; written += buffer.length) await write(buffer);
  await write(tail);
}

const sessions = new Map<string, string>();
let clientElicitation: unknown = null;
/** Turns waiting for `session/cancel`, by session; and sessions whose running turn was cancelled already. */
const cancelWaiters = new Map<string, () => void>();
const cancelledTurns = new Set<string>();

/** An 8x8 red PNG. */
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=';

function describeBlock(b: acp.ContentBlock): Record<string, unknown> {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text.slice(0, 80) };
    case 'image':
      return { type: 'image', mimeType: b.mimeType, bytes: Math.floor((b.data.length * 3) / 4) };
    case 'resource_link':
      return { type: 'resource_link', uri: b.uri, name: b.name };
    case 'resource':
      return { type: 'resource', uri: b.resource.uri, size: 'text' in b.resource ? b.resource.text.length : null };
    case 'audio':
      return { type: 'audio', mimeType: b.mimeType };
  }
}

async function say(client: Client, sessionId: string, text: string): Promise<void> {
  await update(client, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

const FORM_SCHEMA: acp.ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Project name', minLength: 2, description: 'At least two characters' },
    count: { type: 'integer', title: 'Workers', minimum: 1, maximum: 10, default: 3 },
    color: { type: 'string', title: 'Colour', oneOf: [{ const: 'red', title: 'Red' }, { const: 'green', title: 'Green' }, { const: 'blue', title: 'Blue' }], default: 'green' },
    confirm: { type: 'boolean', title: 'Create it now', default: false },
  },
  required: ['name', 'count'],
};

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i === -1 ? undefined : process.argv[i + 1];
}
const recordMcp = argValue('--record-mcp');
/** `--session-prefix P`: session ids `Psess_1`…, unlike an earlier agent process's in the same test run. */
const sessionPrefix = argValue('--session-prefix') ?? '';
const receivedMcp: acp.McpServer[][] = [];
/** The sessions the client sent `session/close` for, in order. */
const closedSessions: string[] = [];
/** What each session/new and session/load brought in `additionalDirectories`, in order. */
/** The sessions the client sent `session/delete` for, in order. */
const deletedSessions: string[] = [];
const receivedDirectories: { method: 'new' | 'load' | 'resume'; directories: string[] | null }[] = [];
const refuseResume = process.argv.includes('--refuse-resume');
const refuseDelete = process.argv.includes('--refuse-delete');

acp
  .agent({ name: 'third-party-test-agent' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    clientElicitation = params.clientCapabilities?.elicitation ?? null;
    return {
    protocolVersion: protocolVersionArg() ?? acp.PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: process.argv.includes('--load-session'),
      ...(['--close-sessions', '--additional-directories', '--delete-sessions', '--resume-sessions', '--refuse-resume', '--refuse-delete'].some((flag) => process.argv.includes(flag))
        ? {
            sessionCapabilities: {
              ...(process.argv.includes('--close-sessions') ? { close: {} } : {}),
              ...(process.argv.includes('--additional-directories') ? { additionalDirectories: {} } : {}),
              ...(process.argv.includes('--delete-sessions') || refuseDelete ? { delete: {} } : {}),
              ...(process.argv.includes('--resume-sessions') || refuseResume ? { resume: {} } : {}),
            },
          }
        : {}),
      ...(process.argv.includes('--mcp-http') ? { mcpCapabilities: { http: true } } : {}),
      ...(argValue('--prompt-capabilities') !== undefined
        ? { promptCapabilities: Object.fromEntries((argValue('--prompt-capabilities') ?? '').split(',').filter(Boolean).map((c) => [c, true])) }
        : {}),
    },
    agentInfo: { name: 'third-party-test-agent', version: '0.0.0' },
    };
  })
  .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
    const sessionId = `${sessionPrefix}sess_${nextId++}`;
    sessions.set(sessionId, params.cwd);
    receivedDirectories.push({ method: 'new', directories: params.additionalDirectories ?? null });
    if (recordMcp !== undefined) {
      receivedMcp.push(params.mcpServers);
      fs.writeFileSync(recordMcp, JSON.stringify(receivedMcp));
    }
    await update(client, sessionId, {
      sessionUpdate: 'available_commands_update',
      availableCommands: [{ name: 'early', description: 'announced before the session/new response' }],
    });
    if (process.argv.includes('--config-options')) {
      const modes = [
        { id: 'default', name: 'Always Ask' },
        { id: 'acceptEdits', name: 'Accept Edits' },
        { id: 'plan', name: 'Plan Mode' },
      ];
      return {
        sessionId,
        modes: { currentModeId: 'default', availableModes: modes },
        configOptions: [
          { id: 'mode', name: 'Mode', description: 'How the agent asks before acting', category: 'mode', type: 'select' as const, currentValue: 'default', options: modes.map((m) => ({ value: m.id, name: m.name })) },
          {
            id: 'model',
            name: 'Model',
            description: 'The model that answers',
            category: 'model',
            type: 'select' as const,
            currentValue: 'sonnet',
            options: [
              { value: 'sonnet', name: 'Claude Sonnet 4.5 (recommended)' },
              { value: 'opus', name: 'Claude Opus 4.1' },
            ],
          },
          { id: 'effort', name: 'Reasoning effort', description: 'How hard the model thinks', category: 'thought_level', type: 'select' as const, currentValue: 'medium', options: ['low', 'medium', 'high'].map((v) => ({ value: v, name: v })) },
        ],
      };
    }
    return { sessionId };
  })
  // Answered whether or not `--close-sessions` advertised it: the `closed-sessions` scenario tells a
  // test which sessions a client closed, including ones it must not have.
  .onRequest(acp.methods.agent.session.close, ({ params }) => {
    closedSessions.push(params.sessionId);
    sessions.delete(params.sessionId);
    return {};
  })
  .onRequest(acp.methods.agent.session.delete, ({ params }) => {
    if (refuseDelete) throw acp.RequestError.internalError(undefined, 'this agent keeps its sessions');
    deletedSessions.push(params.sessionId);
    sessions.delete(params.sessionId);
    return {};
  })
  .onRequest(acp.methods.agent.session.resume, ({ params }) => {
    if (refuseResume) throw acp.RequestError.internalError(undefined, 'this agent cannot resume sessions today');
    sessions.set(params.sessionId, params.cwd);
    receivedDirectories.push({ method: 'resume', directories: params.additionalDirectories ?? null });
    return {};
  })
  .onRequest(acp.methods.agent.session.load, ({ params }) => {
    sessions.set(params.sessionId, params.cwd);
    receivedDirectories.push({ method: 'load', directories: params.additionalDirectories ?? null });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const [firstLine, ...restLines] = text.split('\n');
    const [scenario, arg = '', arg2, arg3] = firstLine.trim().split(/\s+/, 4);
    const sid = params.sessionId;
    cancelledTurns.delete(sid);
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    switch (scenario) {
      case 'claude-edit':
        await claudeEdit(client, params.sessionId, arg, cwd, arg2);
        break;
      case 'edit-lines':
      case 'edit-lines-late':
      case 'edit-lines-fast':
        await editLines(client, sid, arg, cwd, (arg2 ?? '').split(',').map(Number), scenario === 'edit-lines' ? 'ask' : scenario === 'edit-lines-late' ? 'late' : 'fast');
        break;
      case 'write-file':
        await writeFile(client, sid, arg, cwd, restLines.join('\n'));
        break;
      case 'delete-file':
        await deleteFile(client, sid, arg, cwd);
        break;
      case 'propose-two-files':
        await proposeTwoFiles(client, sid, arg, arg2 ?? '');
        break;
      case 'shell':
        await shell(client, sid, cwd, firstLine.trim().slice('shell'.length).trim());
        break;
      case 'early-output':
        await earlyOutput(client, params.sessionId, cwd);
        break;
      case 'retitled-terminal':
        await retitledTerminal(client, params.sessionId, cwd, arg);
        break;
      case 'absolute-title':
        await absoluteTitle(client, params.sessionId, arg);
        break;
      case 'client-terminal':
        await clientTerminal(client, params.sessionId, cwd);
        break;
      case 'client-terminal-split':
        await clientTerminal(client, params.sessionId, cwd, SPLIT_CHARACTERS, 1000);
        break;
      case 'crash':
        await crash(client, sid);
        break;
      case 'crash-with-terminal':
        await crashWithTerminal(client, sid, cwd);
        break;
      case 'long-terminal':
        await report(client, sid, 'sleep-for-a-minute', async () => {
          const { terminalId } = await client.request(acp.methods.client.terminal.create, {
            sessionId: sid,
            command: process.execPath,
            args: ['-e', "console.log('waiting'); setTimeout(() => {}, 60000)"],
            env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
            cwd,
          });
          return client.request(acp.methods.client.terminal.waitForExit, { sessionId: sid, terminalId });
        });
        break;
      case 'unknown-method':
        await report(client, sid, 'Call an unknown method', () => client.request('x_vendor/unknown_method', { sessionId: sid }));
        break;
      case 'garbage':
        process.stdout.write('this is not JSON\n[debug] neither is this\n');
        await update(client, sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still here' } });
        process.stdout.write('{"partial": \n');
        break;
      case 'phantom-update':
        for (let i = 0; i < 3; i++) {
          await update(client, 'sess_phantom', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `ghost ${i}` } });
        }
        await update(client, sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'real' } });
        break;
      case 'huge-line':
        await writeHuge(process.stdout, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"${sid}","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"`, Number(arg), '"}}}}\n');
        // Lives on: the client must stop it.
        await new Promise((r) => setTimeout(r, 60_000));
        break;
      case 'stderr-progress':
        await writeHuge(process.stderr, '', Number(arg), '', (i) => `\r${String(i % 100).padStart(3)}% [${'='.repeat(i % 40).padEnd(40)}]`);
        process.stderr.write('\nprogress done\n');
        break;
      case 'terminal-flood':
        await terminalFlood(client, sid, cwd, Number(arg));
        break;
      case 'fs-read':
        await report(client, sid, `Read ${arg}`, () =>
          client.request(acp.methods.client.fs.readTextFile, {
            sessionId: sid,
            path: arg,
            ...(arg2 ? { line: Number(arg2) } : {}),
            ...(arg3 ? { limit: Number(arg3) } : {}),
          }),
        );
        break;
      case 'fs-write':
        await report(client, sid, `Write ${arg}`, () =>
          client.request(acp.methods.client.fs.writeTextFile, { sessionId: sid, path: arg, content: restLines.join('\n') }),
        );
        break;
      case 'rewrite-in-place':
        await rewriteInPlace(client, sid, arg, cwd, arg2 ?? '', arg3 ?? '');
        break;
      case 'fs-rewrite': {
        const content = fs.readFileSync(arg, 'utf8').replaceAll(arg2 ?? '', arg3 ?? '');
        await report(client, sid, `Rewrite ${arg}`, () => client.request(acp.methods.client.fs.writeTextFile, { sessionId: sid, path: arg, content }));
        break;
      }
      case 'fs-write-twice': {
        const write = (content: string) => client.request(acp.methods.client.fs.writeTextFile, { sessionId: sid, path: arg, content });
        await report(client, sid, `Write ${arg} twice`, () => Promise.all([write('first\n'), write('second\n')]));
        break;
      }
      case 'fs-write-cancel':
        await report(client, sid, `Write ${arg}, then cancel`, async () => {
          const cancel = new AbortController();
          const write = client.request(
            acp.methods.client.fs.writeTextFile,
            { sessionId: sid, path: arg, content: restLines.join('\n') },
            { cancellationSignal: cancel.signal },
          );
          await waitForFile(arg2 ?? '');
          cancel.abort();
          return write;
        });
        break;
      case 'terminal-create-cancel':
        await report(client, sid, `Run in ${arg}, then cancel`, async () => {
          const cancel = new AbortController();
          const create = client.request(
            acp.methods.client.terminal.create,
            { sessionId: sid, command: process.execPath, args: ['-e', "console.log('started')"], env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }], cwd: arg },
            { cancellationSignal: cancel.signal },
          );
          await waitForFile(arg2 ?? '');
          cancel.abort();
          return create;
        });
        break;
      case 'fs-write-spellings': {
        const spellings = firstLine.trim().split(/\s+/).slice(1);
        await report(client, sid, `Write ${spellings.length} spellings`, () =>
          Promise.all(
            spellings.map((p, i) =>
              client.request(acp.methods.client.fs.writeTextFile, { sessionId: sid, path: p, content: `write ${i + 1}\n` }).then(
                () => 'ok',
                (e: Error) => e.message,
              ),
            ),
          ),
        );
        break;
      }
      case 'permission-no-options':
        await report(client, sid, 'Ask with no options', () =>
          client.request(acp.methods.client.session.requestPermission, {
            sessionId: sid,
            toolCall: { toolCallId: `toolu_${nextId++}`, title: 'Do something', kind: 'other' },
            options: [],
          }),
        );
        break;
      case 'cwd-outside':
        await report(client, sid, `Run in ${arg}`, async () => {
          const { terminalId } = await client.request(acp.methods.client.terminal.create, { sessionId: sid, command: 'pwd', cwd: arg });
          return client.request(acp.methods.client.terminal.waitForExit, { sessionId: sid, terminalId });
        });
        break;
      case 'deleted-sessions':
        await report(client, sid, 'Deleted sessions', async () => deletedSessions);
        break;
      case 'session-directories':
        await report(client, sid, 'Session directories', async () => receivedDirectories);
        break;
      case 'closed-sessions':
        await report(client, sid, 'Closed sessions', async () => closedSessions);
        break;
      case 'echo-blocks':
        await report(client, sid, 'Echo the prompt blocks', async () => params.prompt.map(describeBlock));
        await say(client, sid, params.prompt.map((b) => `block: ${JSON.stringify(describeBlock(b))}`).join('\n\n'));
        break;
      case 'ask-form':
        await report(client, sid, 'Ask a form', async () => {
          const answer = await client.request(acp.methods.client.elicitation.create, { mode: 'form', sessionId: sid, message: 'Set up the project', requestedSchema: FORM_SCHEMA });
          await say(client, sid, `elicitation: ${JSON.stringify(answer)} (client elicitation: ${JSON.stringify(clientElicitation)})`);
          return answer;
        });
        break;
      case 'ask-url':
        await report(client, sid, 'Ask to open a URL', async () => {
          const answer = await client.request(acp.methods.client.elicitation.create, { mode: 'url', sessionId: sid, message: 'Sign in to continue', elicitationId: 'e1', url: arg });
          await say(client, sid, `elicitation: ${JSON.stringify(answer)}`);
          return answer;
        });
        break;
      case 'ask-url-complete':
        await report(client, sid, 'Ask to open a URL, then complete it', async () => {
          const elicitationId = `e${nextId++}`;
          const asked = client.request(acp.methods.client.elicitation.create, { mode: 'url', sessionId: sid, message: 'Enter this code: QRST-6789', elicitationId, url: arg });
          await waitForFile(arg2, 60_000);
          await client.notify(acp.methods.client.elicitation.complete, { elicitationId });
          const answer = await asked;
          await say(client, sid, `elicitation: ${JSON.stringify(answer)}`);
          return answer;
        });
        break;
      case 'ask-permission':
        await report(client, sid, arg || 'Do something risky', async () => {
          if (arg2) await waitForFile(arg2);
          const toolCallId = `perm_${nextId++}`;
          const answer = await client.request(acp.methods.client.session.requestPermission, {
            sessionId: sid,
            toolCall: { toolCallId, title: arg || 'Do something risky', kind: 'execute' },
            options: [
              { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          });
          const allowed = answer.outcome.outcome === 'selected' && answer.outcome.optionId === 'yes';
          await update(client, sid, { sessionUpdate: 'tool_call_update', toolCallId, status: allowed ? 'completed' : 'failed' });
          await say(client, sid, `permission: ${JSON.stringify(answer.outcome)}`);
          return answer.outcome;
        });
        break;
      case 'wait-cancel': {
        const toolCallId = `wait_${nextId++}`;
        await update(client, sid, { sessionUpdate: 'tool_call', toolCallId, title: 'Wait for cancel', kind: 'other', status: 'in_progress' });
        // The cancel may come before this point (the client sends it as soon as the turn is busy).
        if (!cancelledTurns.has(sid)) await new Promise<void>((resolve) => cancelWaiters.set(sid, resolve));
        await update(client, sid, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
        await say(client, sid, 'cancelled here');
        return { stopReason: 'cancelled' as const };
      }
      case 'show-image': {
        await update(client, sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Here is the screenshot:' } });
        await update(client, sid, { sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: RED_PNG } });
        const toolCallId = `img_${nextId++}`;
        await update(client, sid, {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: 'Take a screenshot',
          kind: 'other',
          status: 'completed',
          content: [{ type: 'content', content: { type: 'image', mimeType: 'image/png', data: RED_PNG } }],
        });
        break;
      }
      default:
        await update(client, params.sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `unknown scenario ${scenario}` } });
    }
    return { stopReason: 'end_turn' };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    cancelledTurns.add(params.sessionId);
    cancelWaiters.get(params.sessionId)?.();
    cancelWaiters.delete(params.sessionId);
  })
  .connect(stdioStream());
