#!/usr/bin/env node
// @ts-check
// Runs the real-browser UI tests (test/ui/*.test.mjs): headless Chromium drives the VS Code
// workbench served by code-server, with the extension loaded as a development extension on a temp
// copy of test/fixtures/workspace. Mocha runs here in Node; the tests reach the page through
// test/ui/workbench.mjs. `npm run test:ui` builds first and calls this.
//
//   node test/ui/run.mjs [--vscode oldest|newest|VERSION] [--grep PATTERN] [--timeout 3m] [--verbose] [--keep]
//
//   --vscode    ACP_VSCODE        the VS Code build (as harness/host/run-offline.mjs; default oldest)
//   --grep      ACP_UI_GREP       run only the tests whose title matches
//   --timeout   ACP_UI_TIMEOUT    whole-run limit (default 4m): a hang fails instead of stalling
//   --verbose   ACP_UI_VERBOSE=1  browser console on stdout
//   --keep      ACP_UI_KEEP=1     keep the temp workspace copy
//
// Screenshots go to docs/images/ (the README shows them). Exit code: 0 passed, 1 failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCli } from '../../harness/host/cli.mjs';
import Mocha from 'mocha';
import {
  ensureCodeServer, ensureDebianPackages, errorText, freePort, launchChromium, log, logPage, prepareWorkbenchPage, productVersions,
  repoRoot, resolveCodeServer, selectVSCode, since, startCodeServer, workbenchUrl,
} from '../../harness/host/codeServer.mjs';
import { copyWorkspace, parseDuration } from '../../harness/host/workspace.mjs';
import { chat, screenshot, ui } from './workbench.mjs';

const flags = parseCli(
  import.meta.url,
  {
    vscode: { type: 'string' },
    grep: { type: 'string' },
    timeout: { type: 'string' },
    verbose: { type: 'boolean' },
    keep: { type: 'boolean' },
  },
  '[ui]',
  (f) => resolveCodeServer(String(f.vscode ?? (process.env.ACP_VSCODE || 'oldest'))),
);
selectVSCode(flags.vscode ?? (process.env.ACP_VSCODE || 'oldest'));
const env = process.env;
const opts = {
  grep: flags.grep ?? env.ACP_UI_GREP,
  timeoutMs: parseDuration(flags.timeout ?? env.ACP_UI_TIMEOUT ?? '4m'),
  verbose: flags.verbose || env.ACP_UI_VERBOSE === '1',
  keep: flags.keep || env.ACP_UI_KEEP === '1',
};

/** User settings the UI tests rely on (written to the throwaway user-data dir). */
const SETTINGS = {
  // File edits go through without a question; commands still ask, so a prompt shows inline.
  'acpNative.permissions.autoApprove': 'edits',
  // A diff opens only when its tool row is clicked: the click is what the test proves.
  'acpNative.diff.autoOpen': 'onClick',
  'workbench.colorTheme': 'Default Dark Modern',
  'window.commandCenter': false,
  'workbench.layoutControl.enabled': false,
  // The third-party test agent (built by `node esbuild.mjs --tests`): images, forms and Claude-like
  // pickers. test/ui/workspaceContext.test.mjs picks it with ACP: Choose Agent.
  'acpNative.agents': [
    {
      name: 'Test agent (images, forms)',
      command: process.execPath,
      args: [join(repoRoot, 'out/test/agents/thirdPartyAgent.js'), '--prompt-capabilities', 'image', '--config-options'],
    },
    // The benchmark agent (harness/agents/stormAgent.ts): test/ui/streaming.test.mjs streams a 1 MB answer from it.
    { name: 'Storm agent (benchmarks)', command: process.execPath, args: [join(repoRoot, 'out/test/agents/stormAgent.js')] },
    // Plans, compactions, notices and usage as Claude's adapter sends them: test/ui/contextWindow.test.mjs.
    { name: 'Claude-like agent (plans, compaction)', command: process.execPath, args: [join(repoRoot, 'out/test/agents/claudeLikeAgent.js')] },
    // Long turns and `_session/steering` as Claude's adapter serves it: test/ui/queue.test.mjs.
    { name: 'Steering agent (queue)', command: process.execPath, args: [join(repoRoot, 'out/test/agents/steeringAgent.js')] },
    // Subagents as Claude's adapter sends them: test/ui/subagents.test.mjs.
    { name: 'Subagent agent', command: process.execPath, args: [join(repoRoot, 'out/test/agents/subagentAgent.js')] },
    // The same, starting 1.5 s late: typing while its session starts (test/ui/sessions.test.mjs).
    { name: 'Slow-starting agent', command: '/bin/sh', args: ['-c', `sleep 1.5; exec "${process.execPath}" "${join(repoRoot, 'out/test/agents/subagentAgent.js')}"`] },
  ],
};

const cleanups = [];
async function cleanup() {
  while (cleanups.length) await cleanups.pop()().catch((e) => console.error(`[ui] cleanup: ${e.message}`));
}

async function main() {
  const t0 = performance.now();
  ensureDebianPackages();
  await ensureCodeServer();
  const { vscode, codeServer } = productVersions();
  log(`VS Code ${vscode} (code-server ${codeServer})`);
  const { target, cleanup: removeWorkspace } = copyWorkspace(join(repoRoot, 'test/fixtures/workspace'), { keep: opts.keep });
  cleanups.push(async () => removeWorkspace());
  // ACP: Add Agent… reads a loopback port that test/ui/registry.test.mjs serves only once it has
  // shown the offline catalogue (the snapshot shipped in the VSIX, the same on every machine).
  process.env.ACP_UI_REGISTRY_URL = `http://127.0.0.1:${await freePort()}/registry.json`;
  const server = await startCodeServer({ workspace: target, settings: { ...SETTINGS, 'acpNative.registry.url': process.env.ACP_UI_REGISTRY_URL } });
  cleanups.push(() => server.stop());
  log(`code-server up at ${server.url} (${since(t0)})`);
  const browser = await launchChromium({ viewport: { width: 1280, height: 800 } });
  cleanups.push(() => browser.close());
  const { page } = browser;
  const { file: runLog } = logPage(page, { name: 'ui', verbose: opts.verbose });
  await prepareWorkbenchPage(page, { extensionDevelopmentPath: repoRoot });
  Object.assign(ui, { page, workspace: target, userDataDir: server.userDataDir, url: workbenchUrl({ url: server.url, target, extensionDevelopmentPath: repoRoot }) });

  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 60_000,
    reporter: 'spec',
    color: false,
    ...(opts.grep ? { grep: opts.grep } : {}),
    rootHooks: { afterEach: reportFailure },
  });
  const files = process.env.ACP_UI_FILE
    ? [process.env.ACP_UI_FILE]
    : readdirSync(join(repoRoot, 'test/ui')).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => join(repoRoot, 'test/ui', f));
  for (const file of files) mocha.addFile(file);
  await mocha.loadFilesAsync();
  const failures = await new Promise((resolve) => mocha.run(resolve));
  log(`browser log: ${runLog}`);
  log(`UI tests took ${since(t0)}`);
  return failures === 0 ? 0 : 1;
}

/**
 * After a failed test: what the chat showed, printed (CI keeps only the output), and a screenshot
 * of the workbench in test-results/screenshots.
 * @this {import('mocha').Context}
 */
async function reportFailure() {
  const test = this.currentTest;
  if (test?.state !== 'failed' || !ui.page) return;
  const name = `FAILED-${test.fullTitle().replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}`;
  const shown = await chat()
    .locator('body')
    .evaluate((node) => {
      const body = /** @type {HTMLElement} */ (node);
      return `activity=${body.dataset.activity ?? '?'}\n${body.innerText.slice(-2000)}`;
    }, undefined, { timeout: 5_000 })
    .catch((error) => `(the chat could not be read: ${error instanceof Error ? error.message.split('\n')[0] : error})`);
  log(`the chat after "${test.title}" failed (its last 2,000 characters):\n${shown}`);
  log(`ACP Native's log, its last 40 lines:\n${extensionLogTail(40)}`);
  await screenshot(name).catch(() => undefined);
}

/** The tail of the extension's output channel, as the server's extension host wrote it. */
function extensionLogTail(lines) {
  const root = join(ui.userDataDir ?? '', 'logs');
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.includes('ACP Native')) found.push(path);
    }
  };
  try {
    walk(root);
  } catch {
    return `(no logs under ${root})`;
  }
  if (found.length === 0) return `(no ACP Native log under ${root})`;
  return found.map((f) => `${f}:\n` + readFileSync(f, 'utf8').split('\n').slice(-lines).join('\n')).join('\n');
}

let code = 1;
let timer;
try {
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${opts.timeoutMs} ms (--timeout / ACP_UI_TIMEOUT)`)), opts.timeoutMs);
  });
  code = await Promise.race([main(), timedOut]);
} catch (e) {
  console.error(`[ui] ERROR: ${errorText(e)}`);
} finally {
  clearTimeout(timer);
  await cleanup();
}
log(code === 0 ? 'UI tests PASSED' : 'UI tests FAILED');
process.exit(code);
