#!/usr/bin/env node
// @ts-check
// `npm start` (after `node esbuild.mjs`): runs the extension in a real VS Code on the sample
// workspace demo/workspace, to try it by hand.
//
//   node scripts/start.mjs [--port 8740] [--host 127.0.0.1]   VS Code in the browser (default)
//   node scripts/start.mjs --desktop                         desktop VS Code (`code` on PATH)
//   node scripts/start.mjs --check                           prove it works: headless Chromium
//                                                            opens it, screenshot, PASS/FAIL
//
// Default route: VS Code 1.99.3 from npm's code-server, served on 127.0.0.1:8740 with the
// extension loaded as a development extension; open the printed URL in a browser. Nothing is
// downloaded from Microsoft. Ctrl+C stops it.
//   --port N      ACP_PORT      port (default 8740)
//   --host ADDR   ACP_HOST      bind address (default 127.0.0.1; 0.0.0.0 to reach it from elsewhere:
//                               there is no authentication, so only on a trusted network)
//   --desktop     ACP_DESKTOP=1 run `code --extensionDevelopmentPath=<repo> <workspace>` instead
//   --check                     start, load in headless Chromium, wait for the workbench and the
//                               extension's ACP activity-bar item, screenshot test-results/start.png
//   --fresh                     start from a fresh copy of demo/workspace and fresh VS Code state
//
// The workspace is a copy of demo/workspace in .cache/demo-workspace/workspace (made on the first
// run and kept, so the repository's copy stays clean); VS Code's state (layout, open editors)
// is kept in .cache/demo-user-data.
import { spawn } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { parseCli } from '../harness/host/cli.mjs';
import {
  cacheRoot, ensureCodeServer, ensureDebianPackages, errorText, launchChromium, log, productVersions, repoRoot,
  selectVSCode, since, startCodeServer, workbenchUrl,
} from '../harness/host/codeServer.mjs';

// Always the oldest build, whatever ACP_VSCODE says: newer workbenches load a development
// extension only from a page init script (harness/host/codeServer.mjs, prepareWorkbenchPage),
// which a person's own browser does not run.
selectVSCode('oldest');

const flags = parseCli(
  import.meta.url,
  {
    port: { type: 'string' },
    host: { type: 'string' },
    desktop: { type: 'boolean' },
    check: { type: 'boolean' },
    fresh: { type: 'boolean' },
  },
  '[start]',
);

const env = process.env;
const DEMO_SRC = join(repoRoot, 'demo', 'workspace');
const DEMO_COPY = join(cacheRoot, 'demo-workspace', 'workspace'); // same base name: the folder's title
const USER_DATA = join(cacheRoot, 'demo-user-data');
const EXTENSIONS = join(cacheRoot, 'demo-extensions');
const host = flags.host ?? env.ACP_HOST ?? '127.0.0.1';
const portArg = flags.port ?? env.ACP_PORT;
const port = Number(portArg ?? 8740);
if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`bad port: ${portArg}`);

checkBuilt();
if (flags.desktop || env.ACP_DESKTOP === '1') {
  await desktop();
} else if (flags.check) {
  process.exit(await check());
} else {
  await serve();
}

// ---------------------------------------------------------------------------------------------

/** Default: serve VS Code in the browser until Ctrl+C. */
async function serve() {
  const workspace = prepareWorkspace();
  await setup();
  await assertPortFree(port, host);
  const t = performance.now();
  const server = await startCodeServer({ workspace, userDataDir: USER_DATA, extensionsDir: EXTENSIONS, port, host });
  const url = workbenchUrl({ url: `http://${displayHost(host)}:${port}`, target: workspace, extensionDevelopmentPath: repoRoot });
  log(`code-server up in ${since(t)} (log: ${server.logFile})`);
  console.log(
    `\n  ACP Native is running in VS Code ${productVersions().vscode}. Open this URL in a browser:\n\n` +
      `    ${url}\n\n` +
      `  Workspace: ${workspace}\n` +
      '  After rebuilding (npm run build, or npm run watch), reload the page to load the new code.\n' +
      '  Press Ctrl+C to stop.\n',
  );
  let stopping = false;
  await new Promise((/** @type {(value?: unknown) => void} */ resolveStop) => {
    const stop = async (sig) => {
      stopping = true;
      console.log(`\n[start] ${sig}: stopping code-server...`);
      // A failed stop must still end the wait (and not become an unhandled rejection).
      await server.stop().catch((e) => console.error(`[start] stopping code-server failed: ${errorText(e)}`));
      resolveStop();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
    void server.exited.then((x) => {
      if (stopping) return;
      console.error(`[start] code-server exited (${x.code ?? x.signal}); log: ${server.logFile}`);
      process.exit(1);
    });
  });
  log('stopped');
}

/** --check: start, load the workbench in headless Chromium, look for the extension, screenshot. */
async function check() {
  const t0 = performance.now();
  // A throwaway copy, port and state: the check must not depend on (or disturb) a running `npm start`.
  const workspace = prepareWorkspace({ fresh: true, into: join(cacheRoot, 'start-check', 'workspace') });
  let server;
  let browser;
  let ok = false;
  const interrupted = new Promise((_, rej) => {
    for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => rej(new Error(`interrupted by ${sig}`)));
  });
  interrupted.catch(() => {});
  try {
    await setup();
    let t = performance.now();
    server = await startCodeServer({ workspace, port: flags.port || env.ACP_PORT ? port : undefined, host });
    log(`code-server up in ${since(t)}`);
    const url = workbenchUrl({ url: server.url, target: workspace, extensionDevelopmentPath: repoRoot });
    log(`URL: ${url}`);
    t = performance.now();
    browser = await launchChromium();
    const { page } = browser;
    page.on('dialog', (d) => d.dismiss().catch(() => {}));
    const steps = (async () => {
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      log(`workbench loaded (${since(t)})`);
      // The extension's view container (package.json: viewsContainers.activitybar, title "ACP").
      // The activity bar shows it as <li class="action-item"><a class="action-label
      // activity-workbench-view-extension-acpNative-…" aria-label="ACP">. It comes from the
      // manifest alone, so it proves the development extension was loaded, not that it activated.
      const item = page.locator('.part.activitybar a.action-label[aria-label="ACP"]').first();
      await item.waitFor({ state: 'visible', timeout: 60_000 });
      log(`ACP activity-bar item visible (${since(t)})`);
      await item.click(); // opens the Tool Calls view (and activates the extension: onView)
      // Activation: run the extension's "Show Log" command from the command palette; it shows the
      // output channel that activate() creates (named after displayName), so the Output panel's
      // channel picker switching to it proves activate() ran.
      const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
      const cmd = pkg.contributes?.commands?.find((c) => c.command.endsWith('.showLog'));
      if (!cmd) throw new Error('package.json contributes no *.showLog command to prove activation with');
      const title = cmd.category ? `${cmd.category}: ${cmd.title}` : cmd.title;
      // The Chat webview may hold the keyboard focus (keys would go to its iframe): focus the
      // editor area first. A view still loading can take the focus back and close the palette
      // under us (seen once on a fresh machine): then try again, saying so.
      for (let attempt = 1; ; attempt++) {
        try {
          await page.locator('.part.editor').click();
          await page.keyboard.press('F1');
          const input = page.locator('.quick-input-widget input.input');
          await input.waitFor({ state: 'visible', timeout: 15_000 });
          await input.fill(`>${title}`, { timeout: 10_000 });
          await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
          await page.keyboard.press('Enter');
          break;
        } catch (e) {
          if (attempt >= 3) throw e;
          log(`the command palette closed before "${title}" ran (${errorText(e).split('\n')[0]}); trying again`);
          await page.keyboard.press('Escape');
        }
      }
      await page.waitForFunction(
        (name) => [...document.querySelectorAll('.part.panel select')].some((s) => s instanceof HTMLSelectElement && s.value === name),
        pkg.displayName,
        { timeout: 60_000 },
      );
      log(`extension active: "${title}" shows its output channel "${pkg.displayName}" (${since(t)})`);
      await page.waitForTimeout(1500); // let the view render its content
    })();
    await Promise.race([steps, interrupted]);
    ok = true;
  } catch (e) {
    console.error(`[start] check failed: ${errorText(e).split('\n')[0]}`);
  } finally {
    if (browser) {
      const file = join(repoRoot, 'test-results', 'start.png');
      try {
        mkdirSync(dirname(file), { recursive: true });
        await browser.page.screenshot({ path: file, timeout: 15_000 });
        log(`screenshot: ${file}`);
      } catch (e) {
        log(`screenshot failed: ${errorText(e).split('\n')[0]}`);
      }
      await browser.close();
    }
    if (server) {
      if (!ok) log(`code-server log: ${server.logFile}`);
      await server.stop();
    }
  }
  log(`${ok ? 'PASS' : 'FAIL'}: npm start serves VS Code with the extension active (${since(t0)})`);
  return ok ? 0 : 1;
}

/** --desktop: desktop VS Code from PATH. */
async function desktop() {
  const code = which(process.platform === 'win32' ? 'code.cmd' : 'code');
  if (!code) fail('--desktop needs VS Code\'s `code` command on PATH (VS Code: "Shell Command: Install \'code\' command in PATH"). Without it, run `npm start` for VS Code in the browser.');
  const workspace = prepareWorkspace();
  log(`${code} --extensionDevelopmentPath=${repoRoot} ${workspace}`);
  const child = spawn(code, [`--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (c) => process.exit(c ?? 1));
}

// ---------------------------------------------------------------------------------------------

async function setup() {
  const t = performance.now();
  ensureDebianPackages();
  await ensureCodeServer();
  const v = productVersions();
  log(`VS Code ${v.vscode} (code-server ${v.codeServer}) ready (${since(t)})`);
}

/** Copies demo/workspace on first use (or always with fresh), so the repository's copy stays clean. */
function prepareWorkspace({ fresh = flags.fresh, into = DEMO_COPY } = {}) {
  if (fresh) {
    rmSync(into, { recursive: true, force: true });
    if (into === DEMO_COPY) rmSync(USER_DATA, { recursive: true, force: true });
  }
  if (!existsSync(into)) {
    mkdirSync(dirname(into), { recursive: true });
    cpSync(DEMO_SRC, into, { recursive: true });
    log(`copied demo/workspace to ${into}`);
  }
  return into;
}

function checkBuilt() {
  const main = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).main;
  if (main && !existsSync(join(repoRoot, main))) {
    fail(`the extension is not built (${main} is missing): run \`npm start\` (it builds first) or \`node esbuild.mjs\``);
  }
}

async function assertPortFree(p, h) {
  await new Promise((res) => {
    const srv = createServer();
    srv.once('error', (/** @type {NodeJS.ErrnoException} */ e) => {
      fail(
        e.code === 'EADDRINUSE'
          ? `port ${p} is in use (is \`npm start\` already running?). Pick another: --port N or ACP_PORT=N`
          : `cannot listen on ${h}:${p}: ${e.message}`,
      );
    });
    srv.listen(p, h, () => srv.close(res));
  });
}

function displayHost(h) {
  return h === '0.0.0.0' || h === '::' ? '127.0.0.1' : h;
}

function which(cmd) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const f = join(dir, cmd);
    try {
      accessSync(f, constants.X_OK);
      return f;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`[start] ${message}`);
  process.exit(1);
}
