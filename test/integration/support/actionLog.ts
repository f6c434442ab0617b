// What the action log's suites share: one test agent and session for the suite, auto-approved
// edits, editors reverted and closed after each test, and the ways they look at the log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { StopReason } from '@agentclientprotocol/sdk';
import type { AcpNativeApi, LoggedChange } from '../../../src/extension/api/api';
import { agentSuite } from './agentSuite';
import { closeAllEditors, waitFor, within } from './helpers';

export interface ActionLogSuite {
  /** The extension's API (set in the suite's `before`). */
  readonly api: AcpNativeApi;
  /** The latest logged change of a file in the active session. */
  changeOf(path: string): LoggedChange | undefined;
  /** One turn of the test agent, failing instead of hanging. */
  prompt(text: string): Promise<StopReason>;
}

/**
 * Registers the suite's hooks (call it inside `describe`): the test agent `agentName` with a new
 * session, edits approved without asking, diffs opened only on click; every editor reverted and
 * closed after each test. Single-root only.
 */
export function actionLogSuite(agentName: string, agentArgs: string[] = []): ActionLogSuite {
  let api: AcpNativeApi | undefined;
  const suite: ActionLogSuite = {
    get api(): AcpNativeApi {
      if (!api) throw new Error('The suite has not started its agent.');
      return api;
    },
    changeOf: (file) => suite.api.changes().filter((c) => c.path === file).at(-1),
    prompt: (text) => within(`the turn "${text.split('\n')[0]}"`, suite.api.prompt(text)),
  };

  agentSuite(
    { agent: { name: agentName, args: agentArgs }, settings: { 'acpNative.permissions.autoApprove': 'edits', 'acpNative.diff.autoOpen': 'onClick' } },
    (started) => (api = started),
  );

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await closeAllEditors();
  });

  return suite;
}

/** The extension host's longest event-loop block (ms) while `work` runs (printed, never asserted: speed is measured, not gated). */
export async function longestBlock<T>(what: string, work: () => Promise<T>): Promise<T> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    return await work();
  } finally {
    histogram.disable();
    console.log(`      [block] ${what}: longest extension-host block ${(histogram.max / 1e6 - 1).toFixed(1)} ms`);
  }
}

/**
 * Writes files and waits until the extension host has heard of each write from VS Code's file
 * watcher: a write's event arrives late, and one arriving while the next turn's command runs is
 * taken for that command's change (with the text before it not known). Their folder must exist:
 * VS Code may report a new folder's files as the folder's creation alone.
 */
export async function writeSeen(files: ReadonlyArray<readonly [file: string, content: string | Uint8Array]>): Promise<void> {
  const unseen = new Set(files.map(([file]) => path.resolve(file)));
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const seen = (uri: vscode.Uri): void => void unseen.delete(path.resolve(uri.fsPath));
  const subscriptions = [watcher.onDidCreate(seen), watcher.onDidChange(seen)];
  try {
    for (const [file, content] of files) fs.writeFileSync(file, content);
    await waitFor('the file watcher to see the writes', () => unseen.size === 0, 15_000, () => `not seen: ${[...unseen].join(', ')}`);
  } finally {
    for (const s of subscriptions) s.dispose();
    watcher.dispose();
  }
}
