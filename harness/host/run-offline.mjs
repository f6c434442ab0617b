#!/usr/bin/env node
// @ts-check
// Runs the integration suite inside a real VS Code (from npm's code-server: 1.99.3, the oldest the
// extension supports, or 1.139.1, the newest on npm) in headless Chromium, with no download from Microsoft or GitHub. `npm run test:integration` calls it after
// bundling the suite; it also works alone:
//
//   node harness/host/run-offline.mjs [--vscode oldest|newest|VERSION] [--grep PATTERN] [--workspace PATH]
//                                  [--tests FILE] [--extension DIR] [--timeout 20m] [--screenshot]
//                                  [--verbose] [--keep]
//
// Every option also reads an environment variable (flags win):
//   --vscode      ACP_VSCODE           oldest (default: VS Code 1.99.3 = code-server 4.99.4), newest
//                                      (1.139.1 = code-server 4.139.1), or either version number;
//                                      each is installed once into the cache (ACP_CACHE_DIR)
//   --extension   ACP_TEST_EXTENSION   extension under development (default: the repo root)
//   --tests       ACP_TEST_PATH        suite module exporting run() (default: out/test/integration/index.js)
//   --workspace   ACP_TEST_WORKSPACE   folder or .code-workspace file (default: test/fixtures/workspace);
//                                      copied to a temp folder first, so tests may change files freely
//   --grep        ACP_TEST_GREP        passed to the suite as ACP_TEST_GREP (the extension host
//                                      inherits code-server's environment)
//   --timeout     ACP_TEST_TIMEOUT     whole-run limit: 90s, 20m, or milliseconds (default 20m)
//   --screenshot  ACP_TEST_SCREENSHOT=1  screenshot of the workbench into test-results/integration.png
//   --verbose     ACP_TEST_VERBOSE=1   browser console on stdout (default: only to a log file)
//   --keep        ACP_TEST_KEEP=1      keep the temp workspace copy (its path is printed)
//   --untrusted                        Workspace Trust on and the folder untrusted (restricted mode)
//                 ACP_TEST_SETTINGS    extra user settings as JSON (a measurement's own; merged over the quiet ones)
//
// Exit code: the suite's (0 passed, 1 failed), 1 on timeout or a host error, 130/143 on a signal.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { format, inspect } from 'node:util';
import { parseCli } from './cli.mjs';
import {
  ensureCodeServer, ensureDebianPackages, errorText, launchChromium, log, logPage, prepareWorkbenchPage, productVersions,
  repoRoot, resolveCodeServer, selectVSCode, since, sleep, startCodeServer, workbenchUrl,
} from './codeServer.mjs';
import { copyWorkspace, parseDuration, SUITE_FLAGS, suiteOptions } from './workspace.mjs';

const flags = parseCli(
  import.meta.url,
  {
    ...SUITE_FLAGS,
    vscode: { type: 'string' },
    extension: { type: 'string' },
    screenshot: { type: 'boolean' },
    verbose: { type: 'boolean' },
    keep: { type: 'boolean' },
    untrusted: { type: 'boolean' },
  },
  '[host]',
  (f) => {
    if (f.timeout ?? process.env.ACP_TEST_TIMEOUT) parseDuration(f.timeout ?? process.env.ACP_TEST_TIMEOUT);
    resolveCodeServer(String(f.vscode ?? (process.env.ACP_VSCODE || 'oldest')));
  },
);
selectVSCode(flags.vscode ?? (process.env.ACP_VSCODE || 'oldest'));

const env = process.env;
const on = (v) => v === '1' || v === 'true';
const opts = {
  ...suiteOptions(flags),
  extension: resolve(flags.extension ?? env.ACP_TEST_EXTENSION ?? repoRoot),
  screenshot: flags.screenshot || on(env.ACP_TEST_SCREENSHOT),
  verbose: flags.verbose || on(env.ACP_TEST_VERBOSE),
  keep: flags.keep || on(env.ACP_TEST_KEEP),
};

// ---------------------------------------------------------------------------------------------
// Cleanup that runs whatever happens: normal end, error, timeout, Ctrl+C, SIGTERM.
// ---------------------------------------------------------------------------------------------
const cleanups = []; // run in reverse order
const timings = {};
let interrupt; // rejects the wait for the suite when a signal arrives
const interrupted = new Promise((_, rej) => (interrupt = rej));
interrupted.catch(() => {});
let signalled = 0;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    signalled++;
    if (signalled > 1) {
      // Second signal: stop waiting for a clean shutdown.
      for (const c of cleanups) c.hard?.();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    }
    interrupt(Object.assign(new Error(`interrupted by ${sig}`), { exitCode: sig === 'SIGINT' ? 130 : 143 }));
  });
}

// A throw in an event handler must not skip the cleanups: turn it into a failed run.
process.on('uncaughtException', (e) => {
  console.error(`[host] uncaught: ${e.stack ?? e}`);
  interrupt(Object.assign(e instanceof Error ? e : new Error(String(e)), { exitCode: 1 }));
});

async function runCleanups() {
  while (cleanups.length) {
    const c = cleanups.pop();
    try {
      await c.fn();
    } catch (e) {
      console.error(`[host] cleanup (${c.what}) failed: ${errorText(e)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
async function main() {
  let t = performance.now();
  if (!existsSync(opts.tests)) {
    throw new Error(`suite not found: ${opts.tests} (build it with \`node esbuild.mjs --tests\`, or pass --tests)`);
  }
  checkExtension(opts.extension);
  ensureDebianPackages();
  await ensureCodeServer();
  const { vscode, codeServer } = productVersions();
  log(`VS Code ${vscode} (code-server ${codeServer})`);
  const { target, cleanup } = copyWorkspace(opts.workspace, { keep: opts.keep });
  cleanups.push({ what: 'remove workspace copy', fn: cleanup });
  log(`workspace: ${target}${opts.keep ? ' (kept after the run)' : ''}`);
  log(`extension: ${opts.extension}`);
  log(`suite:     ${opts.tests}${opts.grep ? `  (grep: ${opts.grep})` : ''}`);
  timings.setup = performance.now() - t;

  // One deadline for everything after setup (server, browser, suite).
  let timer;
  const timedOut = new Promise((_, rej) => {
    timer = setTimeout(() => rej(new Error(`timed out after ${fmt(opts.timeoutMs)} (ACP_TEST_TIMEOUT / --timeout)`)), opts.timeoutMs);
  });
  timedOut.catch(() => {});
  cleanups.push({ what: 'timer', fn: () => clearTimeout(timer) });
  const guard = (p) => Promise.race([p, timedOut, interrupted]);

  t = performance.now();
  const server = await guard(
    startCodeServer({
      workspace: target,
      // Reaches the extension host (and so the suite): it inherits code-server's environment.
      env: opts.grep ? { ACP_TEST_GREP: opts.grep } : {},
      untrusted: flags.untrusted === true,
      // Extra user settings for a measurement (JSON), e.g. '{"remote.autoForwardPortsSource":"output"}'.
      settings: env.ACP_TEST_SETTINGS ? JSON.parse(env.ACP_TEST_SETTINGS) : {},
    }),
  );
  cleanups.push({ what: 'stop code-server', fn: () => server.stop(), hard: () => process.kill(-server.pid, 'SIGKILL') });
  timings.server = performance.now() - t;
  log(`code-server up at ${server.url} (${since(t)}; log: ${server.logFile})`);

  t = performance.now();
  const browser = await guard(launchChromium());
  cleanups.push({ what: 'close browser', fn: () => browser.close() });
  timings.browser = performance.now() - t;
  const { page } = browser;
  const { file: runLog, debug } = logPage(page, { name: 'integration', verbose: opts.verbose });

  // The workbench calls these two when it runs extension tests (window.codeAutomationLog/Exit):
  // every console call of the extension host, then the result of run() once it settles.
  let resolveExit;
  const exited = new Promise((r) => (resolveExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    try {
      printExtHostLog(type, args, debug);
    } catch (e) {
      // An exception here would only reach the page (and be lost): print the raw call instead.
      console.log(`[host] (unprintable log call: ${errorText(e)}) ${JSON.stringify([type, args])}`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    saveWorkbenchLogs(runLog, logs);
    resolveExit(code);
  });
  const crashed = new Promise((_, rej) => {
    page.on('crash', () => rej(new Error('the browser page crashed')));
    page.on('close', () => rej(new Error('the browser page closed before the suite finished')));
  });
  crashed.catch(() => {});
  const serverDied = server.exited.then((x) => {
    throw new Error(`code-server exited (${x.code ?? x.signal}) before the suite finished; log: ${server.logFile}`);
  });
  serverDied.catch(() => {});

  await prepareWorkbenchPage(page, { extensionDevelopmentPath: opts.extension, extensionTestsPath: opts.tests });
  const url = workbenchUrl({ url: server.url, target, extensionDevelopmentPath: opts.extension, extensionTestsPath: opts.tests });
  debug(`open ${url}`);
  log('running the suite in the extension host...');
  t = performance.now();
  let code;
  try {
    await guard(page.goto(url, { waitUntil: 'domcontentloaded' }));
    code = await guard(Promise.race([exited, crashed, serverDied]));
    if (code === 0) {
      // The workbench also reports 0 when the extension host process died (crash, kill) before
      // run() settled. code-server's log says how it ended; give it a moment to be written.
      await sleep(500);
      const crash = extHostCrash(server.logFile);
      if (crash) {
        console.error(`[host] the extension host ${crash} before the suite finished (VS Code reported success anyway)`);
        code = 1;
      }
    }
  } finally {
    timings.suite = performance.now() - t;
    if (opts.screenshot) await screenshot(page);
    log(`browser and workbench log: ${runLog}`);
  }
  return typeof code === 'number' ? code : 1;
}

// ---------------------------------------------------------------------------------------------

// The same channel carries the workbench's own log (its log service writes there too when tests
// run). These lines of it are routine and only clutter the suite's report; they go to the debug log.
const WORKBENCH_NOISE = [
  /^Resolving connection token \(/,
  /^Resolved connection token \(/,
  /^Creating a socket \(renderer-/,
  /^ChatSessionStore: /,
  /^Updating additional builtin extensions cache/,
  /^Ignoring fetching additional builtin extensions/,
  /^\[Service Worker\] /,
  /^Creation of workbench contribution '.*' took \d+ms\.$/,
  /open-vsx\.org/, // the extension gallery, unreachable offline
  /^\[AgentHost\] No signed-in session resolved/, // 1.139's built-in chat, without a GitHub sign-in
];
// An error of the workbench itself (its stack is in workbench.js, served over http): shown as one
// line, since it may explain a failing test; the stack goes to the debug log.
const WORKBENCH_STACK = /\bat .*\(https?:\/\/[^)]*\/static\/out\/vs\/.*\.js:\d+:\d+\)/;

/**
 * Prints one console call of the extension host like console.log would have. The workbench hands
 * over `args` as an array: the format string first, then the other arguments (objects already
 * turned into JSON-like values). Note: VS Code itself drops a console call whose first argument is
 * not a string (`console.log({a: 1})`, `console.log(42)`): it never reaches this function.
 */
function printExtHostLog(type, args, debug) {
  const parts = Array.isArray(args) ? args : [args];
  const text = parts.length && typeof parts[0] === 'string'
    ? format(...parts)
    : parts.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 6, colors: false }))).join(' ');
  if (!opts.verbose && WORKBENCH_NOISE.some((re) => re.test(text))) {
    debug(`workbench.${type}: ${text}`);
    return;
  }
  if (!opts.verbose && WORKBENCH_STACK.test(text)) {
    debug(`workbench.${type}: ${text}`);
    process.stdout.write(`[workbench ${type}] ${text.split('\n')[0]}  (stack in the browser log)\n`);
    return;
  }
  // One stream (stdout) for every type, so lines keep the order the suite wrote them in.
  process.stdout.write(`${text}\n`);
}

/** The workbench passes its own log files along with the exit code; keep them for debugging. */
function saveWorkbenchLogs(runLog, logs) {
  if (!Array.isArray(logs)) return;
  const dir = runLog.replace(/\.log$/, '-workbench');
  for (const { relativePath, contents } of logs) {
    const file = join(dir, relativePath);
    if (!file.startsWith(dir)) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
}

/** "exited with signal SIGKILL" when code-server logged an abnormal end of an extension host. */
function extHostCrash(serverLog) {
  let text = '';
  try {
    text = readFileSync(serverLog, 'utf8');
  } catch {
    return null;
  }
  for (const m of text.matchAll(/Extension Host Process exited with code: (\S+), signal: (\S+?)\.?$/gm)) {
    const [, exitCode, signal] = m;
    if (signal !== 'null') return `exited with signal ${signal}`;
    if (exitCode !== '0' && exitCode !== 'null') return `exited with code ${exitCode}`;
  }
  return null;
}

async function screenshot(page) {
  const file = join(repoRoot, 'test-results', 'integration.png');
  try {
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file, timeout: 15_000 });
    log(`screenshot: ${file}`);
  } catch (e) {
    log(`screenshot failed: ${errorText(e)}`);
  }
}

function checkExtension(dir) {
  const pkgFile = join(dir, 'package.json');
  if (!existsSync(pkgFile)) throw new Error(`not an extension folder (no package.json): ${dir}`);
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (pkg.main && !existsSync(resolve(dir, pkg.main))) {
    // Not fatal: a suite may test contributions only; but it is almost always a missing build.
    log(`WARNING: the extension's main ${pkg.main} does not exist (run \`node esbuild.mjs\`)`);
  }
}

function fmt(ms) {
  return ms === undefined ? '-' : `${(ms / 1000).toFixed(1)}s`;
}

// ---------------------------------------------------------------------------------------------
// Run (last, so every declaration above is initialised: the exposed page functions use them).
let exitCode = 1;
const tAll = performance.now();
try {
  exitCode = await main();
} catch (e) {
  console.error(`[host] ERROR: ${errorText(e)}`);
  exitCode = /** @type {{ exitCode?: number }} */ (e).exitCode ?? 1;
} finally {
  await runCleanups();
}
log(
  `timings: setup ${fmt(timings.setup)}, server start ${fmt(timings.server)}, ` +
    `browser ${fmt(timings.browser)}, suite ${fmt(timings.suite)}, total ${fmt(performance.now() - tAll)}`,
);
log(exitCode === 0 ? 'integration suite PASSED' : `integration suite FAILED (exit ${exitCode})`);
process.exit(exitCode);
