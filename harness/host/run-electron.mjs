#!/usr/bin/env node
// @ts-check
// Runs the integration suite in desktop VS Code (Electron) through @vscode/test-electron, for
// machines that can download VS Code from Microsoft (or have one: --vscode PATH). The offline route,
// which works everywhere the npm registry does, is harness/host/run-offline.mjs (npm run test:integration).
//
//   node harness/host/run-electron.mjs [--version 1.99.3] [--vscode PATH] [--grep PATTERN]
//                                   [--workspace PATH] [--tests FILE] [--timeout 20m]
//
//   --version    ACP_VSCODE_VERSION  VS Code version to download (default 1.99.3; 'stable' for the latest)
//   --vscode     ACP_VSCODE_PATH     an installed VS Code executable instead of a download
//   --grep       ACP_TEST_GREP       passed to the suite (extensionTestsEnv)
//   --workspace  ACP_TEST_WORKSPACE  folder or .code-workspace file, copied to a temp folder first
//   --tests      ACP_TEST_PATH       suite module (default out/test/integration/index.js)
//   --timeout    ACP_TEST_TIMEOUT    whole-run limit (default 20m)
// Downloads are cached in .cache/vscode-test. On Linux without a display, run it under xvfb-run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseCli } from './cli.mjs';
import { log, repoRoot } from './codeServer.mjs';
import { copyWorkspace, SUITE_FLAGS, suiteOptions } from './workspace.mjs';

const flags = parseCli(
  import.meta.url,
  {
    ...SUITE_FLAGS,
    version: { type: 'string' },
    vscode: { type: 'string' },
  },
  '[host]',
);

const env = process.env;
const version = flags.version ?? env.ACP_VSCODE_VERSION ?? '1.99.3';
const vscodeExecutablePath = flags.vscode ?? env.ACP_VSCODE_PATH;
const { grep, tests, workspace, timeoutMs } = suiteOptions(flags);

if (!existsSync(tests)) {
  console.error(`[host] suite not found: ${tests} (build it with \`node esbuild.mjs --tests\`)`);
  process.exit(1);
}
if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
  log('WARNING: no DISPLAY; desktop VS Code needs one (run under `xvfb-run -a`)');
}

const { runTests } = await import('@vscode/test-electron');
const { target, cleanup } = copyWorkspace(workspace);
const timer = setTimeout(() => {
  console.error(`[host] timed out after ${timeoutMs / 1000}s`);
  cleanup();
  process.exit(1);
}, timeoutMs);
timer.unref();

let code = 1;
try {
  code = await runTests({
    version,
    vscodeExecutablePath,
    cachePath: join(repoRoot, '.cache', 'vscode-test'),
    timeout: 15_000, // per download request: fail fast when Microsoft's servers are unreachable
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: tests,
    extensionTestsEnv: grep ? { ACP_TEST_GREP: grep } : undefined,
    launchArgs: [target, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
  });
} catch (caught) {
  // A download error, or test-electron's TestRunFailedError (a failed suite) with the exit code.
  const e = /** @type {{ message?: string, code?: unknown, signal?: unknown } | undefined} */ (caught);
  const msg = String(e?.message ?? e);
  // test-electron validates the version against Microsoft's update service before downloading; when
  // that service is unreachable it reports an "Invalid version" or a failed download.
  if (!vscodeExecutablePath && /Invalid version|Failed to download|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|timed out/i.test(msg)) {
    console.error(
      `[host] could not download VS Code ${version} from Microsoft (${msg}).\n` +
        '[host] This machine cannot reach update.code.visualstudio.com. Use the offline route instead:\n' +
        '[host]   npm run test:integration   (VS Code 1.99.3 from npm\'s code-server, in headless Chromium)\n' +
        '[host] or point at an installed VS Code: --vscode /path/to/code (ACP_VSCODE_PATH).',
    );
  } else if (e?.code !== undefined || e?.signal) {
    console.error(`[host] VS Code exited with ${e?.code ?? e?.signal}`); // TestRunFailedError: the suite failed
  } else {
    console.error(`[host] ERROR: ${msg}`);
  }
  code = typeof e?.code === 'number' ? e.code : 1;
} finally {
  clearTimeout(timer);
  cleanup();
}
log(code === 0 ? 'integration suite PASSED (desktop VS Code)' : `integration suite FAILED (exit ${code})`);
process.exit(code);
