import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { closeAllEditors, diffTabs, inWorkspace, lastCall, setSetting, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('what third-party agents send', function () {
  let api: AcpNativeApi;

  agentSuite({ settings: { 'acpNative.diff.autoOpen': 'onComplete' } }, (started) => (api = started));

  beforeEach(closeAllEditors);

  it('replaces a Claude-style call-time snippet with the applied hunks, in the tree and the editors', async () => {
    // A file of its own: other suites edit the fixture files.
    const file = inWorkspace('src/claude.ts');
    fs.writeFileSync(file, 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport function farewell(name: string): string {\n  return `Goodbye, ${name}.`;\n}\n');
    await within('the edit turn', api.prompt(`claude-edit ${file}`));
    const call = lastCall(api);
    assert.equal(call.title, 'Edit src/claude.ts');
    assert.equal(call.card, 'diff');
    assert.equal(call.status, 'completed');
    // Two applied hunks of one file open in place: the whole file before them beside the real
    // file — not the bare "Hello" → "Hi" snippet.
    const tab = await waitFor('the diff editor', () => diffTabs().find((t) => lastCall(api).uris.includes(t.input.original.toString())));
    assert.equal(tab.label, 'src/claude.ts (Edit)');
    assert.equal(tab.input.modified.scheme, 'file');
    assert.equal(tab.input.modified.fsPath, file);
    const before = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(
      before.getText(),
      'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n\nexport function farewell(name: string): string {\n  return `Goodbye, ${name}.`;\n}\n',
    );
    assert.match(fs.readFileSync(file, 'utf8'), /Hi, \$\{name\}!/);
    // Two locations, one per hunk, in the tree.
    const locations = call.tree.children.filter((c) => c.icon === 'location');
    assert.deepEqual(
      locations.map((l) => l.label),
      ['src/claude.ts:1', 'src/claude.ts:5'],
    );
  });

  it('opens a call with diffs of two files as one multi-diff editor, its count in the title once', async () => {
    const [first, second] = [inWorkspace('src/proposed-a.ts'), inWorkspace('src/proposed-b.ts')];
    // Only the editor opened here: an auto-open on completion could land after this test, over the next one's preview tab.
    await setSetting('acpNative.diff.autoOpen', 'onClick');
    try {
      await within('the proposing turn', api.prompt(`propose-two-files ${first} ${second}`));
      await vscode.commands.executeCommand('acpNative.openToolCall', api.activeSessionId, lastCall(api).id);
      // VS Code's multi-diff editor appends the count of its entries to the title it is given.
      const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
      await waitFor('the multi-diff tab', () => labels().includes('Propose two files (2 files)'), 15_000, () => JSON.stringify(labels()));
    } finally {
      await setSetting('acpNative.diff.autoOpen', 'onComplete');
    }
  });

  it('updates an open diff editor when the call-time snippet is replaced by the applied hunk', async () => {
    const file = inWorkspace('src/hello.ts');
    fs.writeFileSync(file, 'export const greeting = "Hello";\nexport const target = "world";\n');
    const gate = inWorkspace('.gate-' + Date.now());
    // Only the editor opened here: an auto-open on completion would open the edit in place in
    // another editor (whole file before ↔ real file) and may close this preview tab.
    await setSetting('acpNative.diff.autoOpen', 'onClick');
    try {
      const turn = api.prompt(`claude-edit ${file} ${gate}`);
      let snippetUri: string;
      try {
        const snippet = await waitFor('the call-time snippet', () => {
          const c = api.toolCalls().at(-1);
          return c && c.status === 'in_progress' && c.card === 'diff' ? c : undefined;
        });
        await vscode.commands.executeCommand('acpNative.openToolCall', api.activeSessionId, snippet.id);
        const tab = await waitFor('the snippet diff tab', () => diffTabs().find((t) => lastCall(api).uris.includes(t.input.original.toString())));
        snippetUri = tab.input.original.toString();
        const left = await vscode.workspace.openTextDocument(tab.input.original);
        assert.equal(left.getText(), 'Hello');
      } finally {
        fs.writeFileSync(gate, '');
      }
      await within('the edit turn', turn);
      // Same editor, same URI: its text follows the card's new content.
      assert.ok(diffTabs().some((t) => t.input.original.toString() === snippetUri), 'the diff tab is still open');
      await waitFor(
        'the open editor to show the applied hunk',
        () =>
          vscode.workspace.textDocuments.find((d) => d.uri.toString() === snippetUri)?.getText() ===
          'export const greeting = "Hello";\nexport const target = "world";',
      );
    } finally {
      await setSetting('acpNative.diff.autoOpen', 'onComplete');
    }
  });

  it('creates a display terminal even when its output arrives before terminal_info', async () => {
    await within('the terminal turn', api.prompt('early-output'));
    const call = lastCall(api);
    assert.equal(call.card, 'terminal');
    // VS Code opens the pseudoterminal asynchronously; then it receives everything buffered before.
    const terminal = await waitFor('the terminal to show its output and end', () => {
      const t = lastCall(api).terminal;
      return t?.exit && t.output.includes('[exit code 0]') ? t : undefined;
    });
    const early = terminal.output.indexOf('early line');
    const late = terminal.output.indexOf('late line');
    assert.ok(early >= 0 && late > early, `output in order: ${JSON.stringify(terminal.output)}`);
    assert.equal(terminal.exit?.exitCode, 0);
  });

  it('renames a display terminal first titled "Terminal" to its command when the card is retitled', async () => {
    const earlier = new Set(vscode.window.terminals);
    const gate = path.join(os.tmpdir(), `acp-retitle-${process.pid}-${Date.now()}`);
    const turn = within('the retitled terminal turn', api.prompt(`retitled-terminal ${gate}`));
    const names = () => `terminals: ${JSON.stringify(vscode.window.terminals.filter((t) => !earlier.has(t)).map((t) => t.name))}`;
    try {
      const panel = await waitFor('the panel named "Terminal"', () => vscode.window.terminals.find((t) => !earlier.has(t) && t.name === 'Terminal'), 15_000, names);
      // The agent retitles the card only now: the panel was named "Terminal" first.
      fs.writeFileSync(gate, '');
      assert.equal(await turn, 'end_turn');
      await waitFor('the panel renamed "echo retitled"', () => panel.name === 'echo retitled', 10_000, () => `now "${panel.name}"`);
      assert.ok(!vscode.window.terminals.some((t) => !earlier.has(t) && t.name === 'Terminal'), 'no panel left named "Terminal"');
    } finally {
      // Also when a wait failed: the agent's turn ends, and the next test finds the session idle.
      fs.writeFileSync(gate, '');
      await turn.catch(() => undefined);
      fs.rmSync(gate, { force: true });
    }
  });

  it('refuses a prompt over acpNative.prompt.maxBytes unsent, with its size and the limit; the agent serves the next one', async () => {
    const agents = api.runningAgents();
    const sessionId = api.activeSessionId;
    // 9 MiB of text: over the 8 MiB default, under the agents' 32 MiB line limit it protects.
    await assert.rejects(api.prompt(`echo-blocks\n${'x'.repeat(9 * 1024 * 1024)}`), /The prompt is 9 MiB, over the limit of 8 MiB \(acpNative\.prompt\.maxBytes\): nothing was sent/);
    await setSetting('acpNative.prompt.maxBytes', 65536);
    try {
      await assert.rejects(api.prompt(`echo-blocks\n${'y'.repeat(100_000)}`), /over the limit of 64 KiB/, 'the setting is the limit');
    } finally {
      await setSetting('acpNative.prompt.maxBytes', undefined);
    }
    assert.equal(await within('the next prompt', api.prompt('echo-blocks')), 'end_turn');
    assert.deepEqual(api.runningAgents(), agents, 'the same agent, never restarted');
    assert.equal(api.activeSessionId, sessionId, "the same session");
  });

  it('shows an absolute title relative to the workspace', async () => {
    const file = inWorkspace('src/math.js');
    await within('the read turn', api.prompt(`absolute-title ${file}`));
    const call = lastCall(api);
    assert.equal(call.agentTitle, `Read ${file}`);
    assert.equal(call.title, 'Read src/math.js');
    assert.equal(call.tree.label, 'Read src/math.js');
  });

  it('kills a client terminal\'s process when the user closes its panel', async () => {
    const earlier = new Set(vscode.window.terminals);
    const turn = within('the long terminal turn', api.prompt('long-terminal'));
    // Named after the command line cut to 40 characters (the test host's Node may live at a longer path).
    const panel = await waitFor('the terminal panel', () => vscode.window.terminals.find((t) => !earlier.has(t) && t.name.startsWith(process.execPath.slice(0, 30))));
    await waitFor('the command to start', () => lastCall(api).status === 'in_progress');
    panel.dispose();
    assert.equal(await turn, 'end_turn');
    const raw = lastCall(api).rawOutput as { ok: boolean; result: { exitCode: number | null; signal: string | null } };
    assert.equal(raw.ok, true);
    assert.equal(raw.result.signal, 'SIGTERM');
  });

  it('runs terminal/create for real, keeps only the last outputByteLimit bytes, and mirrors it live', async () => {
    await within('the client terminal turn', api.prompt('client-terminal'));
    const call = lastCall(api);
    assert.equal(call.card, 'terminal');
    assert.equal(call.status, 'failed');
    const raw = (await waitFor('the call to carry its output', () => lastCall(api).rawOutput)) as { output: string; truncated: boolean; exitCode: number; bytes: number };
    assert.equal(raw.truncated, true);
    assert.ok(raw.bytes <= 200, `at most 200 bytes, got ${raw.bytes}`);
    assert.match(raw.output, /line 50 é漢\n$/);
    assert.equal(raw.exitCode, 4);
    // The panel shows everything, not just the truncated tail.
    const terminal = await waitFor('the panel output', () => {
      const t = lastCall(api).terminal;
      return t?.exit && t.output.includes('exit code 4') ? t : undefined;
    });
    assert.match(terminal.output, /line 1 é漢\r\n/);
    assert.match(terminal.output, /exit code 4/);
  });

  it('keeps multi-byte characters cut between a command\'s writes whole, with stderr between the pieces', async () => {
    await within('the client terminal turn', api.prompt('client-terminal-split'));
    const raw = (await waitFor('the call to carry its output', () => lastCall(api).rawOutput)) as { output: string; truncated: boolean; exitCode: number };
    assert.equal(raw.exitCode, 0);
    assert.ok(!raw.output.includes('\ufffd'), `no broken character in ${JSON.stringify(raw.output)}`);
    assert.equal(raw.output.replace(/E\n/g, ''), 'A é漢😀 Z\n', 'stdout whole, in order');
    assert.equal(raw.output.match(/E\n/g)?.length, 5, 'every stderr line kept');
    const terminal = await waitFor('the panel output', () => {
      const t = lastCall(api).terminal;
      return t?.exit && t.output.includes('exit code 0') ? t : undefined;
    });
    assert.ok(!terminal.output.includes('\ufffd'), 'the panel shows no broken character');
    assert.ok(terminal.output.replace(/E\r\n/g, '').includes('A é漢😀 Z\r\n'), 'the panel shows the line whole, in CRLF');
  });
});
