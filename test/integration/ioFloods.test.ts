import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AcpNativeApi, RenderedToolCall } from '../../src/extension/api/api';
import { DEFAULT_OUTPUT_LIMIT } from '../../src/extension/cards/terminal/clientTerminals';
import { FLOOD_LAST_LINE, isFloodTail } from '../../harness/agents/lib/floodLines';
import { closeAllEditors, diffTabs, inWorkspace, lastCall, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

const MB = 2 ** 20;
const SKIP_NOTE_END = 'of output not shown …]\x1b[0m\r\n';

/** The tool call of the turn, once its terminal panel shows how the command ended. */
function endedTerminalCall(api: AcpNativeApi): Promise<RenderedToolCall> {
  return waitFor('the exit line in the terminal panel', () => {
    const call = lastCall(api);
    return call.terminal && /\[exit code 0\]/.test(call.terminal.output) ? call : undefined;
  });
}

/**
 * While output overflows, a panel delivery gives at most this many characters of it (the live
 * tail; outputPseudoterminal's FLOOD_SHOW_CHARS), before `\n` became `\r\n` (a flood line is 128 characters).
 */
const FLOOD_SHOW_CHARS = 16 * 1024;
const FLOOD_DELIVERY_MAX = FLOOD_SHOW_CHARS + FLOOD_SHOW_CHARS / 128;

/** The median length of the panel's deliveries between two "not shown" notes (the flood's own deliveries). */
function medianFloodDelivery(rendered: string): number {
  const between = rendered.split(/\x1b\[0m\r\n\x1b\[2m\[… [^\]]* of output not shown …\]\x1b\[0m\r\n/).slice(1, -1);
  assert.ok(between.length > 0, 'the panel was given more than one delivery of the flood');
  const lengths = between.map((text) => text.length).sort((a, b) => a - b);
  return lengths[Math.floor(lengths.length / 2)];
}

/** What the panel was given last, after its last "not shown" note and before the exit line. */
function lastDelivery(rendered: string): string {
  const from = rendered.lastIndexOf(SKIP_NOTE_END);
  const to = rendered.lastIndexOf('\x1b[32m[exit code 0]');
  return rendered.slice(from === -1 ? 0 : from + SKIP_NOTE_END.length, to);
}

describe('I/O floods and a big file: bounded, the tail intact, the diff right', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: { name: 'flood', file: 'floodAgent' } }, (started) => (api = started));

  after(closeAllEditors);

  it('keeps the exact tail of a 100 MB client-terminal flood within the default limit, and says it truncated', async () => {
    assert.equal(await within('the flood turn', api.prompt('client 100'), 120_000), 'end_turn');
    const call = await endedTerminalCall(api);
    const { polls, ...kept } = call.rawOutput as { polls: number };
    // What the agent's last `terminal/output` got: the newest 1 MiB, whole lines in order, flagged truncated.
    assert.deepEqual(kept, { exitCode: 0, bytes: DEFAULT_OUTPUT_LIMIT, truncated: true, tailIntact: true });
    assert.ok(polls > 0, 'the agent polled terminal/output while the command ran');
    const rendered = call.terminal?.output ?? '';
    assert.ok(rendered.includes(SKIP_NOTE_END), 'the panel says it skipped part of the flood');
    assert.ok(isFloodTail(lastDelivery(rendered), 100 * MB, '\r\n'), 'the panel ends with the output as the command wrote it, in CRLF');
    // While it flooded, the panel was given a live tail, not all it keeps (128 Ki a delivery): the
    // window parses and draws all it gets, on the cores the host and the command need.
    const median = medianFloodDelivery(rendered);
    assert.ok(median <= FLOOD_DELIVERY_MAX, `flood deliveries of ${median} characters (median)`);
  });

  it('honours an explicit outputByteLimit to the byte', async () => {
    assert.equal(await within('the flood turn', api.prompt('client 5 100000'), 60_000), 'end_turn');
    const call = await endedTerminalCall(api);
    const { polls: _polls, ...kept } = call.rawOutput as { polls: number };
    assert.deepEqual(kept, { exitCode: 0, bytes: 100_000, truncated: true, tailIntact: true });
  });

  it('shows the tail of a 100 MB display-terminal flood in its panel and says what it skipped', async () => {
    assert.equal(await within('the display flood turn', api.prompt('display 100'), 120_000), 'end_turn');
    const call = await endedTerminalCall(api);
    const rendered = call.terminal?.output ?? '';
    assert.ok(rendered.includes(SKIP_NOTE_END), 'the panel says it skipped part of the flood');
    const tail = lastDelivery(rendered);
    assert.ok(tail.endsWith(FLOOD_LAST_LINE.replace('\n', '\r\n')), 'the last line arrived');
    assert.ok(isFloodTail(tail, 100 * MB, '\r\n'), 'what the panel shows last is the output in order, nothing in between lost');
    const median = medianFloodDelivery(rendered);
    assert.ok(median <= FLOOD_DELIVERY_MAX, `flood deliveries of ${median} characters (median)`);
  });

  it('opens the diff of a 10 MB CRLF file with a BOM: both sides right, every other byte kept', async () => {
    const file = inWorkspace('big-crlf.txt');
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 10 * MB; i++) {
      lines.push(`line ${i}: some text of a big generated file, café ✓`);
      size += lines[i].length + 2;
    }
    const original = lines.join('\r\n') + '\r\n';
    fs.writeFileSync(file, '\uFEFF' + original);
    try {
      assert.equal(await within('the edit turn', api.prompt(`edit ${file}`), 120_000), 'end_turn');
      // The agent read LF text and changed its middle line (it counts the empty string after the last newline).
      const middle = Math.floor((lines.length + 1) / 2);
      const edited = [...lines];
      edited[middle] += ' // edited';
      const expected = edited.join('\r\n') + '\r\n';
      assert.equal(fs.readFileSync(file, 'utf8'), '\uFEFF' + expected, 'the BOM, every CRLF and every other line kept');
      const tab = await waitFor('the diff editor of the big file', () => diffTabs().find((t) => t.input.modified.fsPath === file), 60_000);
      const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.input.original), vscode.workspace.openTextDocument(tab.input.modified)]);
      assert.equal(left.getText(), original.replace(/\r\n/g, '\n'), 'the left side is the whole file before the edit');
      assert.equal(right.getText(), expected, 'the right side is the real file, as it is now');
      assert.equal(right.eol, vscode.EndOfLine.CRLF);
      // The left side's text is held by VS Code's document alone: no 10 MB copy of it kept beside.
      await waitFor('the before side held by its document only', () => api.stats().kept.diffBeforeChars === 0);
    } finally {
      await closeAllEditors();
      fs.rmSync(file, { force: true });
    }
  });

  it('opens an edit\'s diff again after the file changed: the left side follows, and no copy of it is kept', async () => {
    const file = inWorkspace('small-edited.txt');
    const lines = Array.from({ length: 21 }, (_, i) => `line ${i}`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    try {
      assert.equal(await within('the edit turn', api.prompt(`edit ${file}`)), 'end_turn');
      const call = lastCall(api);
      const tab = await waitFor('the diff editor', () => diffTabs().find((t) => t.input.modified.fsPath === file));
      const left = await vscode.workspace.openTextDocument(tab.input.original);
      assert.equal(left.getText(), lines.join('\n') + '\n', 'the whole file before the edit');
      await waitFor('the before side held by its document only', () => api.stats().kept.diffBeforeChars === 0);
      // Opened again, nothing changed: the same text, still no copy kept.
      await vscode.commands.executeCommand('acpNative.openToolCall', api.activeSessionId, call.id);
      assert.equal(api.stats().kept.diffBeforeChars, 0);
      assert.equal(left.getText(), lines.join('\n') + '\n');
      // The user changes another line and saves: opened again, the left side is the file as it is now, the edit undone.
      const now = fs.readFileSync(file, 'utf8').replace('line 0\n', 'line zero\n');
      fs.writeFileSync(file, now);
      await vscode.commands.executeCommand('acpNative.openToolCall', api.activeSessionId, call.id);
      await waitFor('the left side to follow the file', () => left.getText() === ['line zero', ...lines.slice(1)].join('\n') + '\n', 15_000, () => JSON.stringify(left.getText()));
      await waitFor('the before side held by its document only', () => api.stats().kept.diffBeforeChars === 0);
    } finally {
      await closeAllEditors();
      fs.rmSync(file, { force: true });
    }
  });
});
