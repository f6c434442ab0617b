import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { AcpNativeApi, RenderedToolCall } from '../../../src/extension/api/api';
import { allTabs, closeAllEditors, setSetting, useTestAgent } from '../../../harness/inHost/extension';
import { waitFor as poll, within } from '../../../harness/inHost/wait';

export { EXTENSION_ID, allTabs, closeAllEditors, diffTabs, getApi, setSetting, testAgentEntry, testAgentPath, useAgent, useTestAgent } from '../../../harness/inHost/extension';
export { within } from '../../../harness/inHost/wait';

export function workspaceRoot(index = 0): string {
  const folder = vscode.workspace.workspaceFolders?.[index];
  if (!folder) throw new Error(`No workspace folder #${index}`);
  return folder.uri.fsPath;
}

export function inWorkspace(rel: string, index = 0): string {
  return path.join(workspaceRoot(index), rel);
}

/** Polls until `probe` returns a truthy value; fails with `what` (and the open tabs) after `timeoutMs`. */
export function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false,
  timeoutMs = 15_000,
  describe: () => string = () => `open tabs: ${JSON.stringify(allTabs().map((t) => t.label))}`,
): Promise<T> {
  return poll(what, probe, { timeoutMs, describe });
}

export function lastCall(api: AcpNativeApi): RenderedToolCall {
  const calls = api.toolCalls();
  const last = calls.at(-1);
  if (!last) throw new Error('No tool call rendered');
  return last;
}

/**
 * Makes the third-party test agent (harness/agents/thirdPartyAgent.ts) the default agent and stops
 * any running agent: the next session starts it.
 */
export function startTestAgent(api: AcpNativeApi, name = 'third-party', extraArgs: string[] = []): Promise<void> {
  return useTestAgent(api, { name, file: 'thirdPartyAgent', args: extraArgs });
}

/** Makes the bundled agent the default agent, with these settings, and stops any running agent. */
export async function useBundledAgent(
  api: AcpNativeApi,
  { autoApprove = 'everything', autoOpen = 'onComplete' }: { autoApprove?: string; autoOpen?: 'onComplete' | 'onClick' } = {},
): Promise<void> {
  await setSetting('acpNative.defaultAgent', 'bundled');
  await setSetting('acpNative.permissions.autoApprove', autoApprove);
  await setSetting('acpNative.diff.autoOpen', autoOpen);
  await api.stopAgent();
}

/** A fenced block, as the bundled agent's scripted commands take them. */
export const fence = (text: string): string => '```\n' + text + '\n```';

/** True in the multi-root pass: single-root suites skip themselves there. */
export function isMultiRoot(): boolean {
  return (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
}

export function readFile(p: string): string {
  return fs.readFileSync(p, 'utf8');
}

/** What a scenario of the third-party test agent reports: the result of its client request, or the error. */
export type Reported = { ok: true; result: unknown } | { ok: false; code?: number; message: string };

/** Runs one scenario of the third-party test agent and returns what its client request gave. */
export async function runScenario(api: AcpNativeApi, prompt: string): Promise<Reported> {
  const stop = await within(`"${prompt.split('\n')[0]}"`, api.prompt(prompt));
  assert.equal(stop, 'end_turn');
  return waitFor('the reported result', () => lastCall(api).rawOutput as Reported | undefined);
}

/** Opens the file in an editor and replaces its text without saving: the user's unsaved work. */
export async function dirtyDocument(file: string, text: string): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(doc);
  await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
  assert.ok(doc.isDirty);
  return doc;
}

/** Reverts every document with unsaved changes, then closes every editor. */
export async function revertAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await closeAllEditors();
}
