import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as fs from 'node:fs';
import type { AcpNativeApi, RenderedToolCall } from '../../../src/extension/api/api';

export const EXTENSION_ID = 'acp-native.acp-native';

export async function getApi(): Promise<AcpNativeApi> {
  const ext = vscode.extensions.getExtension<AcpNativeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded`);
  return ext.activate();
}

export function workspaceRoot(index = 0): string {
  const folder = vscode.workspace.workspaceFolders?.[index];
  if (!folder) throw new Error(`No workspace folder #${index}`);
  return folder.uri.fsPath;
}

export function inWorkspace(rel: string, index = 0): string {
  return path.join(workspaceRoot(index), rel);
}

/** Polls until `probe` returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false,
  timeoutMs = 15_000,
  describeState: () => string = () => `open tabs: ${JSON.stringify(allTabs().map((t) => t.label))}`,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what} (${describeState()})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Fails the test instead of hanging when a promise does not settle in time. */
export async function within<T>(what: string, promise: Promise<T>, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function lastCall(api: AcpNativeApi): RenderedToolCall {
  const calls = api.toolCalls();
  const last = calls.at(-1);
  if (!last) throw new Error('No tool call rendered');
  return last;
}

export function allTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs);
}

export function diffTabs(): (vscode.Tab & { input: vscode.TabInputTextDiff })[] {
  return allTabs().filter((t): t is vscode.Tab & { input: vscode.TabInputTextDiff } => t.input instanceof vscode.TabInputTextDiff);
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  const [section, ...rest] = key.split('.');
  await vscode.workspace.getConfiguration(section).update(rest.join('.'), value, vscode.ConfigurationTarget.Global);
}

/** The compiled test agents live next to the compiled suite: out/test/agents. */
export function testAgentPath(name: string): string {
  return path.join(__dirname, '..', 'agents', `${name}.js`);
}

/**
 * Makes the third-party test agent (harness/agents/thirdPartyAgent.ts) the default agent and starts
 * a fresh session with it.
 */
export async function startTestAgent(api: AcpNativeApi, name = 'third-party', extraArgs: string[] = []): Promise<void> {
  await setSetting('acpNative.agents', [
    { name, command: process.execPath, args: [testAgentPath('thirdPartyAgent'), ...extraArgs], env: { ELECTRON_RUN_AS_NODE: '1' } },
  ]);
  await setSetting('acpNative.defaultAgent', name);
  await api.stopAgent();
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

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
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
