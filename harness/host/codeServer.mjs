// @ts-check
// Shared machinery of the offline test host: a real VS Code (the build shipped inside the npm
// package `code-server`) served on loopback and driven by Debian's Chromium through playwright-core.
//
// Why code-server: machines of this project reach only the npm registry and Debian's packages, so
// `@vscode/test-electron` (which downloads VS Code from Microsoft) cannot run here. Each code-server
// release contains a VS Code build with the full Node extension host. Two builds are known (see
// CODE_SERVER_BUILDS): the oldest VS Code the extension supports and the newest on npm; each is
// installed side by side in the cache. docs/testing.md, "Two VS Code versions".
//
// Used by harness/host/run-offline.mjs (integration tests), test/ui/run.mjs and scripts/start.mjs.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync, closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync,
  readFileSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// ACP_CACHE_DIR: another cache root (e.g. to try a fresh install without touching the shared one).
export const cacheRoot = process.env.ACP_CACHE_DIR ? resolve(process.env.ACP_CACHE_DIR) : join(repoRoot, '.cache');
export const logsDir = join(cacheRoot, 'logs');
export const CHROMIUM = '/usr/bin/chromium';

/**
 * @typedef {object} CodeServerBuild
 * @property {string} vscode  the VS Code version inside
 * @property {number | string} node  a number: the machine's Node must have that major; a string: that
 *   exact Node from npm's `node-<platform>-<arch>` package (the official binary and its headers),
 *   installed into the cache, used to build the native modules and to run the server only (the
 *   launchers, tests and test agents stay on the machine's Node)
 * @property {Record<string, boolean>} allowScripts  npm's install-script policy for lib/vscode
 * @property {string[]} native  native modules that must exist after the build (in lib/vscode/node_modules)
 * @property {string[]} load  modules loaded once after the build (in lib/vscode/node_modules)
 * @property {boolean} webConfiguration  the workbench ignores the URL payload's
 *   extensionDevelopmentPath / extensionTestsPath (a built 1.1xx honours them only with its
 *   smoke-test driver on, which hides every notification): they go into the page's web
 *   configuration (`developmentOptions`) instead, see prepareWorkbenchPage
 */

/**
 * The code-server releases the host installs. The oldest is the VS Code of `engines.vscode`; the
 * newest is npm's latest (`npm view code-server version`) when it was last bumped. Install-time
 * scripts: allow the native modules VS Code's server needs, deny the Windows- and macOS-only ones
 * (they compile to empty stubs on Linux and are never loaded; denying them saves build time).
 * @type {Record<string, CodeServerBuild>}
 */
export const CODE_SERVER_BUILDS = {
  '4.99.4': {
    vscode: '1.99.3',
    node: 20,
    allowScripts: {
      'node-pty': true, // terminals (pty.node); its postinstall also runs `npx node-gyp configure`
      kerberos: true, // proxy auth; `prebuild-install || node-gyp rebuild` (download fails → builds)
      '@vscode/spdlog': true, // logging
      'native-watchdog': true, // extension host watchdog
      '@parcel/watcher': true, // file watching; finds its prebuilt @parcel/watcher-linux-x64-glibc
      '@vscode/ripgrep': true, // exits early because we pre-place bin/rg (else: GitHub download)
      '@vscode/windows-process-tree': false,
      '@vscode/windows-registry': false,
      '@vscode/deviceid': false,
    },
    native: [
      'node-pty/build/Release/pty.node',
      'kerberos/build/Release/kerberos.node',
      '@vscode/spdlog/build/Release/spdlog.node',
      'native-watchdog/build/Release/watchdog.node',
    ],
    load: ['node-pty', 'kerberos', '@vscode/spdlog', 'native-watchdog', '@parcel/watcher'],
    webConfiguration: false,
  },
  '4.139.1': {
    vscode: '1.139.1',
    node: '24.22.3', // code-server 4.139 requires Node 24 (its postinstall refuses other majors)
    allowScripts: {
      'node-pty': true, // ships a prebuilt linux-x64 pty.node (N-API); the script only checks it
      kerberos: true,
      '@vscode/spdlog': true,
      '@vscode/native-watchdog': true,
      '@vscode/sqlite3': true, // the server's state storage (compiles SQLite: the slow step)
      '@parcel/watcher': true,
      '@vscode/windows-process-tree': false,
      '@vscode/windows-registry': false,
      '@vscode/windows-ca-certs': false,
      '@vscode/deviceid': false,
      '@vscode/fs-copyfile': false, // macOS only
      ssh2: false, // its optional cpu-features speed-up
      'cpu-features': false,
      koffi: false,
    },
    native: [
      'kerberos/build/Release/kerberos.node',
      '@vscode/spdlog/build/Release/spdlog.node',
      '@vscode/native-watchdog/build/Release/watchdog.node',
      '@vscode/sqlite3/build/Release/vscode-sqlite3.node',
    ],
    load: ['node-pty', 'kerberos', '@vscode/spdlog', '@vscode/native-watchdog', '@parcel/watcher', '@vscode/sqlite3'],
    webConfiguration: true,
  },
};
export const OLDEST_CODE_SERVER = '4.99.4';
export const NEWEST_CODE_SERVER = '4.139.1';

/**
 * The code-server version a spec names: "oldest", "newest", a code-server version (4.139.1) or a
 * VS Code version or its prefix (1.139, 1.99.3). Throws on anything else, listing what is known.
 * @param {string} spec
 */
export function resolveCodeServer(spec) {
  const s = String(spec).trim().toLowerCase();
  if (s === 'oldest') return OLDEST_CODE_SERVER;
  if (s === 'newest') return NEWEST_CODE_SERVER;
  if (CODE_SERVER_BUILDS[s]) return s;
  const byVscode = Object.keys(CODE_SERVER_BUILDS).filter((v) => {
    const vs = CODE_SERVER_BUILDS[v].vscode;
    return vs === s || vs.startsWith(`${s}.`);
  });
  if (byVscode.length === 1) return byVscode[0];
  const known = Object.entries(CODE_SERVER_BUILDS).map(([v, b]) => `${v} (VS Code ${b.vscode})`).join(', ');
  throw new Error(`unknown VS Code version "${spec}": use oldest, newest, or one of ${known}`);
}

/** The paths of one build in the cache. */
function layoutOf(version) {
  const dir = join(cacheRoot, `code-server-${version}`);
  const pkgDir = join(dir, 'node_modules', 'code-server');
  return {
    version,
    build: CODE_SERVER_BUILDS[version],
    dir,
    pkgDir,
    vscodeDir: join(pkgDir, 'lib', 'vscode'),
    entryJs: join(pkgDir, 'out', 'node', 'entry.js'),
    // Written last, only after every install step succeeded: an interrupted install is redone.
    markerFile: join(dir, '.installed.json'),
  };
}

/** @type {ReturnType<typeof layoutOf> | undefined} */
let selected;
/**
 * Chooses the VS Code build every later call uses (ensureCodeServer, startCodeServer,
 * productVersions, workbenchUrl, prepareWorkbenchPage). Without a call: ACP_VSCODE, else the oldest.
 * @param {string} spec  see resolveCodeServer
 */
export function selectVSCode(spec) {
  selected = layoutOf(resolveCodeServer(spec));
  return selected.version;
}
function current() {
  if (!selected) selectVSCode(process.env.ACP_VSCODE || 'oldest');
  return /** @type {ReturnType<typeof layoutOf>} */ (selected);
}

/** `[host] message` on stdout; every line of the launchers starts with the same tag. */
export function log(message) {
  console.log(`[host] ${message}`);
}

/** The message of a caught value, whatever was thrown. */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/** Seconds since `t0` (a performance.now() value), formatted for progress lines. */
export function since(t0) {
  return `${((performance.now() - t0) / 1000).toFixed(1)}s`;
}

/** A fresh log file path under .cache/logs, e.g. .cache/logs/code-server-2026-11-30T13-37-20-123Z.log */
export function newLogFile(name) {
  mkdirSync(logsDir, { recursive: true });
  pruneLogs();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(logsDir, `${name}-${stamp}-${process.pid}.log`);
}

/** Every run adds logs; drop those older than a week (once per process). */
let pruned = false;
function pruneLogs() {
  if (pruned) return;
  pruned = true;
  const cutoff = Date.now() - 7 * 24 * 3600 * 1000;
  for (const name of readdirSync(logsDir)) {
    const f = join(logsDir, name);
    try {
      if (statSync(f).mtimeMs < cutoff) rmSync(f, { recursive: true, force: true });
    } catch {
      // raced with another run
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Debian packages
// ---------------------------------------------------------------------------------------------

/**
 * Chromium drives the workbench; ripgrep replaces the binary @vscode/ripgrep would download from
 * GitHub (VS Code's search needs it); libkrb5-dev has the headers the `kerberos` native module of
 * VS Code's server is compiled against. Installs them with apt-get when missing and we are root.
 */
export function ensureDebianPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!existsSync('/usr/bin/rg')) missing.push('ripgrep');
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/krb5/krb5.h')) missing.push('libkrb5-dev');
  if (missing.length === 0) return;

  if (process.getuid?.() !== 0) {
    throw new Error(
      `Debian packages missing: ${missing.join(' ')}. Install them, e.g.\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  const t0 = performance.now();
  const logFile = newLogFile('apt');
  log(`installing Debian packages: ${missing.join(' ')} (log: ${logFile})`);
  // All three in one go (apt-get skips those already present).
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env, logFile });
  run('apt-get', ['install', '-y', '-q', 'chromium', 'ripgrep', 'libkrb5-dev'], { env, logFile });
  log(`Debian packages installed (${since(t0)})`);
}

// ---------------------------------------------------------------------------------------------
// code-server install (cached in .cache/code-server-<version>)
// ---------------------------------------------------------------------------------------------

// npm 11 runs an unreviewed dependency's install script with a warning today, and refuses it when
// `strict-allow-scripts` is set (and future npm releases may refuse by default), so the cache's
// package.json files carry an explicit policy (`allowScripts`, per build in CODE_SERVER_BUILDS).
const ROOT_ALLOW_SCRIPTS = { argon2: true, 'code-server': false };

/** Node of the build: the machine's (a major it must have) or an exact version from npm. */
function nodeOf(build) {
  if (typeof build.node === 'number') {
    const home = resolve(dirname(process.execPath), '..');
    return { fromNpm: false, version: process.versions.node, major: build.node, pkg: '', dir: '', home, bin: process.execPath };
  }
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(cacheRoot, `node-${build.node}`);
  const home = join(dir, 'node_modules', pkg);
  return { fromNpm: true, version: build.node, major: Number(build.node.split('.')[0]), pkg, dir, home, bin: join(home, 'bin', 'node') };
}

/** Is the cached install complete and built for its Node? */
function installedOk(l) {
  if (!existsSync(l.markerFile) || !existsSync(l.entryJs)) return false;
  const node = nodeOf(l.build);
  if (node.fromNpm && !existsSync(node.bin)) return false;
  try {
    const m = JSON.parse(readFileSync(l.markerFile, 'utf8'));
    if (m.version !== l.version) return false;
    return node.fromNpm ? m.node === node.version : m.modules === process.versions.modules;
  } catch {
    return false;
  }
}

/**
 * Installs the selected code-server into .cache/code-server-<version>/ (and the Node it needs into
 * .cache/node-<version>/) unless already done, and returns the path of its `out/node/entry.js`.
 * Recipe (see docs/testing.md): install everything with --ignore-scripts, then run only the build
 * steps we need, without any download from GitHub.
 */
export async function ensureCodeServer() {
  const l = current();
  if (installedOk(l)) return l.entryJs;
  const node = nodeOf(l.build);
  if (!node.fromNpm && Number(process.versions.node.split('.')[0]) !== node.major) {
    throw new Error(`code-server ${l.version} requires Node ${node.major}; this is Node ${process.versions.node}`);
  }
  const release = await lock(l.dir);
  try {
    if (installedOk(l)) return l.entryJs; // another process finished it while we waited
    await install(l);
    return l.entryJs;
  } finally {
    release();
  }
}

/** The node binary that runs the selected build's server. */
function serverNode() {
  return nodeOf(current().build).bin;
}

async function install(l) {
  const t0 = performance.now();
  const logFile = newLogFile('code-server-install');
  const { vscodeDir } = l;
  const node = nodeOf(l.build);
  log(`installing code-server ${l.version} (VS Code ${l.build.vscode}) into ${l.dir} (log: ${logFile})`);
  rmSync(l.dir, { recursive: true, force: true });
  mkdirSync(l.dir, { recursive: true });

  // Under `npm run`, the environment carries the outer project's npm settings (npm_config_prefix,
  // npm_config_local_prefix, npm_package_*, ...). Keep only those that describe how to reach the
  // registry; the rest would describe the wrong project.
  const KEEP = /^npm_config_(registry|cafile|ca|cert|key|strict_ssl|proxy|https_proxy|noproxy|userconfig|globalconfig|cache|nodedir|python|node_gyp|fetch_.*)$/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || KEEP.test(k)));
  // node-pty's postinstall runs `npx node-gyp ...`; the user's npmrc may say `yes=false`, which makes
  // npx refuse (or, without it, wait for an answer on a CI machine without stdin).
  env.npm_config_yes = 'true';
  const quiet = ['--no-audit', '--no-fund', '--loglevel=warn'];
  const npm = (cwd, args, what) => step(what, () => run('npm', args, { cwd, env, logFile }));

  if (node.fromNpm) {
    // The official binary with its headers, from npm (nodejs.org is unreachable here). First on
    // PATH while building, so npm, node-gyp and the install scripts all run on it, and node-gyp
    // compiles against its headers: the native modules get the server's ABI.
    rmSync(node.dir, { recursive: true, force: true });
    mkdirSync(node.dir, { recursive: true });
    writeJson(join(node.dir, 'package.json'), { name: 'acp-native-node-cache', private: true, description: 'Generated by harness/host/codeServer.mjs; safe to delete.' });
    npm(node.dir, ['install', `${node.pkg}@${node.version}`, '--ignore-scripts', ...quiet], `npm install ${node.pkg}@${node.version} (Node for the server)`);
    if (!existsSync(node.bin)) throw new Error(`no node binary in ${node.home} (log: ${logFile})`);
    env.PATH = `${dirname(node.bin)}${delimiter}${env.PATH ?? ''}`;
    env.npm_config_nodedir = node.home;
  } else {
    // node-gyp needs Node's headers; it would download them from nodejs.org (unreachable here) unless
    // pointed at the ones installed next to this node binary (Debian/NodeSource: /usr/include/node).
    if (!env.npm_config_nodedir && existsSync(join(node.home, 'include', 'node', 'common.gypi'))) {
      env.npm_config_nodedir = node.home;
    }
  }

  writeJson(join(l.dir, 'package.json'), {
    name: 'acp-native-code-server-cache',
    private: true,
    description: 'Generated by harness/host/codeServer.mjs; safe to delete.',
    dependencies: { 'code-server': l.version },
    allowScripts: ROOT_ALLOW_SCRIPTS,
  });
  npm(l.dir, ['install', '--ignore-scripts', ...quiet], `npm install code-server@${l.version} (no scripts)`);

  // What code-server's own postinstall.sh does, step by step, minus the GitHub downloads.
  npm(vscodeDir, ['install', '--omit=dev', '--ignore-scripts', ...quiet], 'npm install lib/vscode (no scripts)');
  // @vscode/ripgrep's postinstall downloads rg from GitHub unless its bin/ folder exists (newer
  // builds ship @vscode/ripgrep-universal, with the binaries inside, instead).
  if (existsSync(join(vscodeDir, 'node_modules/@vscode/ripgrep'))) {
    mkdirSync(join(vscodeDir, 'node_modules/@vscode/ripgrep/bin'), { recursive: true });
    symlinkForce('/usr/bin/rg', join(vscodeDir, 'node_modules/@vscode/ripgrep/bin/rg'));
  }
  patchJson(join(vscodeDir, 'package.json'), (p) => ({ ...p, allowScripts: l.build.allowScripts }));
  npm(vscodeDir, ['rebuild', '--foreground-scripts', ...quiet], 'npm rebuild lib/vscode (native modules)');
  for (const rel of l.build.native) {
    if (!existsSync(join(vscodeDir, 'node_modules', rel))) {
      throw new Error(`native module not built: lib/vscode/node_modules/${rel} (log: ${logFile})`);
    }
  }
  symlinkForce('node_modules', join(vscodeDir, 'node_modules.asar'));
  symlinkForce('code-linux.sh', join(vscodeDir, 'bin/remote-cli/code-server'));
  symlinkForce('browser-linux.sh', join(vscodeDir, 'bin/helpers/browser.sh'));
  // Built-in extensions share one dependency (typescript); its postinstall only trims files.
  npm(join(vscodeDir, 'extensions'), ['install', '--omit=dev', '--ignore-scripts', ...quiet], 'npm install lib/vscode/extensions');
  // code-server's HTTP server requires argon2 at start even with --auth none.
  npm(l.dir, ['rebuild', 'argon2', '--foreground-scripts', ...quiet], 'npm rebuild argon2');

  // Load every native module once in the server's Node, so a broken build fails here and not later
  // inside the server with a less obvious message.
  step('check native modules load', () => {
    const mods = l.build.load.map((m) => join(vscodeDir, 'node_modules', m));
    mods.push(join(l.dir, 'node_modules', 'argon2'));
    const code = `for (const m of ${JSON.stringify(mods)}) require(m);`;
    run(node.bin, ['-e', code], { logFile });
  });

  writeJson(l.markerFile, {
    version: l.version,
    vscode: l.build.vscode,
    modules: node.fromNpm ? undefined : process.versions.modules,
    node: node.version,
    installedAt: new Date().toISOString(),
  });
  log(`code-server ${l.version} installed (${since(t0)})`);

  function step(what, fn) {
    const t = performance.now();
    appendFileSync(logFile, `\n=== ${what}\n`);
    fn();
    log(`  ${what} (${since(t)})`);
  }
}

/** Exclusive lock on a cache folder, so two launchers never install into it at once. */
async function lock(dir) {
  mkdirSync(cacheRoot, { recursive: true });
  const file = `${dir}.lock`;
  for (let waited = 0; ; waited++) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8')) || 0;
      if (!pidAlive(pid)) {
        rmSync(file, { force: true }); // left by a killed install
        continue;
      }
      if (waited === 0) log(`waiting for process ${pid}, which is installing code-server...`);
      await sleep(1000);
    }
  }
}

function pidAlive(pid) {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/** Product versions of the cached install: { vscode: '1.99.3', codeServer: '4.99.4', commit }. */
export function productVersions() {
  const { vscodeDir, pkgDir } = current();
  const vscode = JSON.parse(readFileSync(join(vscodeDir, 'package.json'), 'utf8')).version;
  const product = JSON.parse(readFileSync(join(vscodeDir, 'product.json'), 'utf8'));
  const codeServer = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
  return { vscode, codeServer, commit: product.commit };
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

/** Settings that keep the workbench quiet and deterministic for tests and demos. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'git.openRepositoryInParentFolders': 'never',
  'chat.commandCenter.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
  // Desktop VS Code's default. The web's default (afterDelay) saves a test's unsaved changes
  // behind its back a second later, and unsaved changes are what many tests are about.
  'files.autoSave': 'off',
  // The remote extension host otherwise scans /proc for ports to forward every few seconds,
  // spawning `ls`/`ps` (a fork of the whole host process): 50–200 ms event-loop blocks under load
  // that are VS Code's own and blur what the benchmarks measure of the extension. In code-server
  // this alone does not stop the scan: its workbench registers a tunnel factory, and VS Code keeps
  // scanning while one exists (seen: a shell `ls -l /proc/[0-9]*/fd/[0-9]*` every 2–11 s during the
  // benches). `remote.autoForwardPortsSource: "output"` stops it (ACP_TEST_SETTINGS to try it).
  'remote.autoForwardPorts': false,
};

/**
 * Writes settings into a settings file; a kept user-data dir keeps the user's own changes (the
 * values given only fill in).
 */
function writeSettings(file, values) {
  let existing = {};
  try {
    existing = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // none yet (or not plain JSON: replaced)
  }
  if (Object.keys(values).length === 0 && Object.keys(existing).length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  writeJson(file, { ...values, ...existing });
}

/** The settings among these that the extension declares with scope "machine" (or "machine-overridable"). */
function machineScoped(settings) {
  const { contributes } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const sections = Array.isArray(contributes.configuration) ? contributes.configuration : [contributes.configuration];
  const machine = new Set(sections.flatMap((c) => Object.entries(c.properties ?? {}).filter(([, p]) => String(p.scope ?? '').startsWith('machine')).map(([key]) => key)));
  return Object.fromEntries(Object.entries(settings).filter(([key]) => machine.has(key)));
}

export async function freePort(host = '127.0.0.1') {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, host, () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => res(port));
    });
  });
}

/**
 * Starts code-server on 127.0.0.1 and waits until it answers.
 * @param {object} o
 * @param {string} o.workspace  folder or .code-workspace file code-server opens by default
 * @param {string} [o.userDataDir]  kept when given; a throwaway temp dir otherwise
 * @param {string} [o.extensionsDir]  kept when given; a throwaway temp dir otherwise
 * @param {number} [o.port]  default: a free port
 * @param {string} [o.host]  bind address, default 127.0.0.1
 * @param {Record<string,string>} [o.env]  extra environment (reaches the extension host)
 * @param {object} [o.settings]  user settings merged over QUIET_SETTINGS
 * @param {boolean} [o.untrusted]  keep Workspace Trust on, the folder untrusted (restricted mode)
 * @returns {Promise<{url: string, port: number, host: string, logFile: string, pid: number | undefined,
 *   userDataDir: string, extensionsDir: string, stop: () => Promise<void>,
 *   exited: Promise<{code: number | null, signal: string | null}>}>}
 *   stop() kills the process group and removes the throwaway dirs; exited settles when the
 *   server process ends.
 */
export async function startCodeServer({ workspace, userDataDir, extensionsDir, port, host = '127.0.0.1', env = {}, settings = {}, untrusted = false }) {
  const entry = await ensureCodeServer();
  const temps = [];
  const tmp = (name) => {
    const d = mkdtempSync(join(tmpdir(), `acp-${name}-`));
    temps.push(d);
    return d;
  };
  userDataDir ??= tmp('user-data');
  extensionsDir ??= tmp('extensions');
  mkdirSync(extensionsDir, { recursive: true });
  // Untrusted: trust on, never prompted, so the folder opens in restricted mode.
  const trust = untrusted ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {};
  writeSettings(join(userDataDir, 'User', 'settings.json'), { ...QUIET_SETTINGS, ...settings, ...trust });
  // A remote window, which code-server's is, takes the settings of scope "machine"
  // (acpNative.registry.url, …) only from the remote settings: those given go there too, as a
  // user of a remote window sets them. 1.139 holds to that; 1.99.3 under code-server also took them
  // from the user settings.
  writeSettings(join(userDataDir, 'Machine', 'settings.json'), machineScoped(settings));
  // Without --config, code-server writes ~/.config/code-server/config.yaml (with a password).
  const configFile = join(userDataDir, 'code-server.yaml');
  if (!existsSync(configFile)) writeFileSync(configFile, 'auth: none\ncert: false\n');

  const opts = { configFile, userDataDir, extensionsDir, workspace, host, env, temps, untrusted };
  try {
    if (port !== undefined) return await spawnServer(entry, { ...opts, port });
    // A free port can be taken by another process between the probe and code-server's listen
    // (parallel runs): try again with another one.
    for (let attempt = 1; ; attempt++) {
      try {
        return await spawnServer(entry, { ...opts, port: await freePort(host === '0.0.0.0' ? '127.0.0.1' : host) });
      } catch (e) {
        if (attempt >= 3 || !/EADDRINUSE/.test(errorText(e))) throw e;
      }
    }
  } catch (e) {
    temps.forEach((d) => rmSync(d, { recursive: true, force: true }));
    throw e;
  }
}

async function spawnServer(entry, { configFile, userDataDir, extensionsDir, workspace, host, env, temps, port, untrusted }) {
  const logFile = newLogFile('code-server');
  const args = [
    entry,
    '--config', configFile,
    '--auth', 'none',
    '--bind-addr', `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    ...(untrusted ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    workspace,
  ];
  const childEnv = { ...process.env, ...env };
  // Started from a VS Code terminal, these would make code-server act as a CLI of *that* VS Code
  // (VSCODE_IPC_HOOK_CLI) or confuse the extension host it starts.
  for (const k of Object.keys(childEnv)) {
    if (k.startsWith('VSCODE_') || k === 'ELECTRON_RUN_AS_NODE') delete childEnv[k];
  }
  const out = openSync(logFile, 'a');
  armExitSweep();
  // detached: own process group, so stop() can kill the server *and* the extension host, pty host
  // and file watcher it forks, in one signal.
  const child = spawn(serverNode(), args, { env: childEnv, stdio: ['ignore', out, out], detached: true });
  closeSync(out);
  liveServers.add(child.pid);
  // Set by the exit handler: typed by a cast, or the checks below would see only its initial null.
  let exited = /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */ (null);
  const exitedP = new Promise((res) => child.on('exit', (code, signal) => res((exited = { code, signal }))));

  const rmTemps = () => temps.forEach((d) => rmSync(d, { recursive: true, force: true }));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child.pid, 'SIGTERM');
    const done = await Promise.race([exitedP.then(() => true), sleep(5000).then(() => false)]);
    // The extension host may outlive its parent for a moment; always sweep the group.
    killGroup(child.pid, 'SIGKILL');
    if (!done) await Promise.race([exitedP, sleep(2000)]);
    liveServers.delete(child.pid);
    rmTemps();
  };

  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      throw new Error(`code-server exited during start (${exited.code ?? exited.signal}); log: ${logFile}\n${tail(logFile)}`);
    }
    if (await answers(`${url}/healthz`)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} within 60s; log: ${logFile}\n${tail(logFile)}`);
    }
    await sleep(200);
  }
  return { url, port, host, logFile, pid: child.pid, userDataDir, extensionsDir, stop, exited: exitedP };
}

// Safety net: whatever way this process ends (even an uncaught exception, which skips the
// launchers' finally blocks), no code-server process group outlives it.
const liveServers = new Set();
let exitSweepArmed = false;
function armExitSweep() {
  if (exitSweepArmed) return;
  exitSweepArmed = true;
  process.on('exit', () => {
    for (const pid of liveServers) killGroup(pid, 'SIGKILL');
  });
}

async function answers(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return r.ok;
  } catch {
    return false;
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------
// Workbench URL
// ---------------------------------------------------------------------------------------------

/**
 * The URL that opens the workbench on `target` (a folder, or a .code-workspace file for a
 * multi-root workspace) with the extension under development loaded, and optionally a test suite
 * run in the extension host. Paths are absolute paths on the server's machine.
 * @param {object} o
 * @param {string} o.url  server base URL, e.g. http://127.0.0.1:8740
 * @param {string} o.target  folder or .code-workspace file
 * @param {string} [o.extensionDevelopmentPath]
 * @param {string} [o.extensionTestsPath]
 * @param {string} [o.authority]  host:port the browser reaches the server at (default: from url)
 */
export function workbenchUrl({ url, target, extensionDevelopmentPath, extensionTestsPath, authority }) {
  const base = new URL(url);
  authority ??= base.host;
  // The payload's URIs name files on the remote (the server); their authority is the host:port
  // the browser uses (a mismatch such as localhost vs 127.0.0.1 was seen to work as well).
  const remote = (p) => `vscode-remote://${authority}${resolve(p)}`;
  const payload = [];
  // Builds that ignore these two here get them from prepareWorkbenchPage instead.
  if (!current().build.webConfiguration) {
    if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
    if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  }
  payload.push(['skipWelcome', 'true']);
  const key = target.endsWith('.code-workspace') ? 'workspace' : 'folder';
  // Slashes left readable in the path (the URL is printed for people to open).
  const path = encodeURIComponent(resolve(target)).replace(/%2F/g, '/');
  return `${base.origin}/?${key}=${path}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/**
 * Makes `page` load the extension under development (and the test suite) on builds whose
 * workbench ignores them in the URL (`webConfiguration` in CODE_SERVER_BUILDS): an init script puts
 * them into the workbench's web configuration (the `developmentOptions` of the JSON in the
 * `vscode-workbench-web-configuration` meta element) before the workbench reads it. A no-op on the
 * other builds, where workbenchUrl's payload does it. Call before the first navigation; it holds for
 * every later navigation of the page (reloads included).
 * @param {import('playwright-core').Page} page
 * @param {{ extensionDevelopmentPath?: string, extensionTestsPath?: string }} o  absolute server paths
 */
export async function prepareWorkbenchPage(page, { extensionDevelopmentPath, extensionTestsPath }) {
  if (!current().build.webConfiguration) return;
  const paths = {
    extensions: extensionDevelopmentPath ? [resolve(extensionDevelopmentPath)] : [],
    tests: extensionTestsPath ? resolve(extensionTestsPath) : undefined,
  };
  await page.addInitScript((cfg) => {
    if (window.top !== window) return; // webview frames have no workbench configuration
    const ID = 'vscode-workbench-web-configuration';
    const patch = (/** @type {Element} */ meta) => {
      const settings = JSON.parse(meta.getAttribute('data-settings') || '{}');
      const uri = (/** @type {string} */ path) => ({ scheme: 'vscode-remote', authority: location.host, path });
      settings.developmentOptions = {
        ...settings.developmentOptions,
        ...(cfg.extensions.length ? { extensions: cfg.extensions.map(uri) } : {}),
        ...(cfg.tests ? { extensionTestsPath: uri(cfg.tests) } : {}),
      };
      meta.setAttribute('data-settings', JSON.stringify(settings));
    };
    // The script runs before the document exists; mutation callbacks run before the parser runs
    // the next script, so the meta element is patched before the workbench's script reads it.
    const observer = new MutationObserver(() => {
      const meta = document.getElementById(ID);
      if (!meta) return;
      observer.disconnect();
      patch(meta);
    });
    observer.observe(document, { childList: true, subtree: true });
  }, paths);
}

// ---------------------------------------------------------------------------------------------
// Browser
// ---------------------------------------------------------------------------------------------

export const CHROMIUM_ARGS = [
  '--no-sandbox', // root on CI
  '--disable-gpu',
  // The machine's network is closed: without these, Chromium keeps trying Google's services.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Headless Debian Chromium with a fresh profile. playwright's `launch()` refuses a
 * `--user-data-dir` argument, so a persistent context on a temp dir is used instead; it behaves as
 * a fresh browser. Returns { context, page, close() }; close() also removes the profile.
 */
export async function launchChromium({ viewport = { width: 1400, height: 900 } } = {}) {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'acp-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport,
      // Playwright's own signal handlers would close the browser and exit the process at once,
      // skipping the launcher's cleanup (stopping code-server, removing temp dirs).
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.race([context.close().catch(() => {}), sleep(10_000)]);
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, close };
}

/**
 * The browser's side of a run in a log file of its own (.cache/logs/NAME-*.log): what the page
 * logs, its errors and failed requests, and any line a launcher adds with `debug` (also printed
 * with `verbose`). Browser-level dialogs (beforeunload and the like) are dismissed: they would
 * block the page forever.
 * @param {import('playwright-core').Page} page
 * @param {{ name: string, verbose?: boolean }} o
 */
export function logPage(page, { name, verbose = false }) {
  const file = newLogFile(name);
  /** @param {string} line */
  const debug = (line) => {
    appendFileSync(file, `${line}\n`);
    if (verbose) console.log(`[browser] ${line}`);
  };
  page.on('console', (m) => debug(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => debug(`pageerror: ${e.stack ?? e.message}`));
  page.on('requestfailed', (r) => debug(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('dialog', (d) => d.dismiss().catch(() => {}));
  return { file, debug };
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a command synchronously, output appended to logFile (or inherited); throws on failure.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, logFile?: string }} [options]
 */
function run(cmd, args, { cwd, env, logFile } = {}) {
  /** @type {import('node:child_process').StdioOptions} */
  let stdio = 'inherit';
  let fd;
  if (logFile) {
    appendFileSync(logFile, `\n$ ${cmd} ${args.join(' ')}${cwd ? `   (in ${cwd})` : ''}\n`);
    fd = openSync(logFile, 'a');
    stdio = ['ignore', fd, fd];
  }
  const r = spawnSync(cmd, args, { cwd, env, stdio });
  if (fd !== undefined) closeSync(fd);
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})` +
        (logFile ? `; log: ${logFile}\n${tail(logFile)}` : ''),
    );
  }
}

/** Last lines of a log file, for error messages. */
export function tail(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).map((l) => `    | ${l}`).join('\n');
  } catch {
    return '';
  }
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function patchJson(file, fn) {
  writeJson(file, fn(JSON.parse(readFileSync(file, 'utf8'))));
}

function symlinkForce(target, path) {
  try {
    lstatSync(path);
    rmSync(path, { recursive: true, force: true });
  } catch {
    // does not exist
  }
  symlinkSync(target, path);
}
