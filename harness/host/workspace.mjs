// @ts-check
// Helpers shared by the suite launchers (run-offline.mjs, run-electron.mjs) and test/ui/run.mjs.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { log, repoRoot } from './codeServer.mjs';

/** The flags both suite launchers take (parseCli options); `suiteOptions` reads them. */
export const SUITE_FLAGS = /** @type {const} */ ({
  tests: { type: 'string' },
  workspace: { type: 'string' },
  grep: { type: 'string' },
  timeout: { type: 'string' },
});

/**
 * What the suite flags say, each over its environment variable, with the defaults: the suite
 * module, the workspace (copied before the run), the grep passed to the suite, the whole-run limit.
 * @param {{ tests?: string, workspace?: string, grep?: string, timeout?: string }} flags
 */
export function suiteOptions(flags) {
  const env = process.env;
  return {
    tests: resolve(repoRoot, flags.tests ?? env.ACP_TEST_PATH ?? 'out/test/integration/index.js'),
    workspace: resolve(repoRoot, flags.workspace ?? env.ACP_TEST_WORKSPACE ?? 'test/fixtures/workspace'),
    grep: flags.grep ?? env.ACP_TEST_GREP,
    timeoutMs: parseDuration(flags.timeout ?? env.ACP_TEST_TIMEOUT ?? '20m'),
  };
}

/**
 * Copies the workspace to a temp folder, so the suite may modify files freely. A folder is copied
 * as is (same base name: it is the workspace folder's name). For a .code-workspace file the folder
 * holding it is copied; folder entries that point outside that folder are rewritten to the
 * originals' absolute paths (not copied: keep multi-root fixtures self-contained).
 */
export function copyWorkspace(src, { keep = false } = {}) {
  if (!existsSync(src)) throw new Error(`workspace not found: ${src}`);
  const root = mkdtempSync(join(tmpdir(), 'acp-test-ws-'));
  const cleanup = () => {
    if (!keep) rmSync(root, { recursive: true, force: true });
  };
  if (statSync(src).isDirectory()) {
    const target = join(root, basename(src));
    cpSync(src, target, { recursive: true });
    return { target, cleanup };
  }
  if (!src.endsWith('.code-workspace')) throw new Error(`workspace must be a folder or a .code-workspace file: ${src}`);
  const srcDir = dirname(src);
  const copyDir = join(root, basename(srcDir));
  cpSync(srcDir, copyDir, { recursive: true });
  const target = join(copyDir, basename(src));
  const ws = parseJsonc(readFileSync(target, 'utf8'));
  let changed = false;
  for (const f of ws.folders ?? []) {
    if (typeof f.path !== 'string' || isAbsolute(f.path)) continue;
    const orig = resolve(srcDir, f.path);
    const rel = relative(srcDir, orig);
    if (rel.startsWith('..')) {
      log(`WARNING: workspace folder ${f.path} is outside ${srcDir}; using the original (not a copy)`);
      f.path = orig;
      changed = true;
    }
  }
  if (changed) writeFileSync(target, `${JSON.stringify(ws, null, 2)}\n`);
  return { target, cleanup };
}

/** JSON with comments and trailing commas, as VS Code writes .code-workspace files. */
function parseJsonc(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1 || text.length;
    } else {
      out += c;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/** "90s", "20m", "1.5m", "500ms" or plain milliseconds. */
export function parseDuration(s) {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min)?$/.exec(String(s).trim());
  if (!m) throw new Error(`bad duration: ${s} (examples: 90s, 20m, 600000)`);
  const n = Number(m[1]);
  return m[2] === 's' ? n * 1000 : m[2] === 'm' || m[2] === 'min' ? n * 60_000 : n;
}
