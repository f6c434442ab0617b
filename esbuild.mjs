// @ts-check
// Builds the two programs of the extension, and (with --tests) the integration suite.
//   node esbuild.mjs                 development build (source maps)
//   node esbuild.mjs --production    minified build for the VSIX
//   node esbuild.mjs --watch         rebuild on change (F5 development)
//   node esbuild.mjs --tests         also bundle test/integration/** into out/test/integration and
//                                    harness/agents/* into out/test/agents
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  // The SDK and openai ship ESM with `import.meta.url` guards we never reach in CJS.
  logOverride: { 'empty-import-meta': 'silent' },
};

/**
 * Code that startup does not need, each in a file of its own next to the program that loads it with
 * `await import('./name')` on first use (esbuild's CommonJS output cannot split). A bundle that
 * kept such a module inline would evaluate it lazily only by wrapping everything it reaches, zod
 * included, which esbuild gets wrong for `sideEffects: false` packages (an import whose
 * initializer is dropped).
 *   module (relative to the repository) → the file it becomes in dist/
 */
const lazyChunks = {
  // The MCP SDK with ajv: only when a session's MCP server is first used.
  'src/agent/mcp/sdk.ts': 'dist/agentMcp.js',
  // The extension's archive readers (yauzl, tar-stream, seek-bzip): only when an agent is installed.
  'src/extension/agents/registry/archives.ts': 'dist/registryArchives.js',
};

/**
 * Resolves `import('./x')` of a lazy chunk to its own file (external), and refuses a static import
 * of one (it would pull the chunk back in).
 * @type {esbuild.Plugin}
 */
const lazyChunkImports = {
  name: 'lazy-chunks',
  setup(build) {
    const chunkFiles = new Map(Object.entries(lazyChunks).map(([source, out]) => [resolve(source).replace(/\.ts$/, ''), out]));
    build.onResolve({ filter: /^\./ }, (args) => {
      const target = resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
      const out = chunkFiles.get(target);
      if (out === undefined) return undefined;
      if (args.kind !== 'dynamic-import') {
        return { errors: [{ text: `${args.path} is a lazy chunk (esbuild.mjs lazyChunks): load it with await import(), never a static import` }] };
      }
      return { path: `./${basename(out)}`, external: true };
    });
  },
};

/**
 * The ACP SDK in the extension: a stand-in whose every export loads it from its own file
 * (dist/acpSdk.js) when first read. Evaluating it (mostly its zod schemas) was most of the
 * extension's module evaluation at activation; its values are first read right after an agent's
 * process is spawned (AgentConnection.start), while that process starts. Synchronous on purpose:
 * the SDK's values are read in many places, none before an agent runs. The agent's bundle keeps it
 * inline (it needs it at once).
 */
const sdkExports = Object.keys(await import('@agentclientprotocol/sdk'));
const SDK_CHUNK = 'dist/acpSdk.js';
/** @type {esbuild.Plugin} */
const lazySdk = {
  name: 'lazy-acp-sdk',
  setup(build) {
    build.onResolve({ filter: /^@agentclientprotocol\/sdk$/ }, () => ({ path: 'sdk', namespace: 'lazy-acp-sdk' }));
    build.onResolve({ filter: /^\.\/acpSdk\.js$/, namespace: 'lazy-acp-sdk' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'lazy-acp-sdk' }, () => ({
      loader: 'js',
      contents: [
        'let sdk;',
        "const load = () => (sdk ??= require('./acpSdk.js'));",
        ...sdkExports.map((name) => `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => load()[${JSON.stringify(name)}] });`),
      ].join('\n'),
    }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [lazyChunkImports, lazySdk] },
  { ...common, stdin: { contents: "export * from '@agentclientprotocol/sdk';", resolveDir: '.', loader: 'js' }, outfile: SDK_CHUNK },
  { ...common, entryPoints: ['src/agent/main.ts'], outfile: 'dist/agent.js', plugins: [lazyChunkImports] },
  ...Object.entries(lazyChunks).map(([source, outfile]) => ({ ...common, entryPoints: [source], outfile })),
  // The Chat webview's script (browser code; chat.css sits next to it as written).
  { ...common, platform: 'browser', target: 'chrome120', format: 'iife', entryPoints: ['media/chat/main.ts'], outfile: 'media/chat/chat.js' },
];

if (tests) {
  const tsIn = (dir) => readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f));
  rmSync('out/test', { recursive: true, force: true });
  builds.push(
    { ...common, sourcemap: 'inline', entryPoints: tsIn('test/integration'), outdir: 'out/test/integration', external: ['vscode', 'mocha'] },
    // Agents the integration tests start as child processes (plain Node programs).
    { ...common, entryPoints: tsIn('harness/agents'), outdir: 'out/test/agents' },
  );
}

if (!watch) rmSync('dist', { recursive: true, force: true });
// A production build writes no map: a stale one from a development build must not linger (or ship).
if (!watch) rmSync('media/chat/chat.js.map', { force: true });

if (watch) {
  // Lines the F5 task's problem matcher watches for (.vscode/tasks.json).
  const announce = {
    name: 'announce',
    setup(build) {
      build.onStart(() => console.log('[watch] build started'));
      build.onEnd((result) => console.log(`[watch] build finished${result.errors.length ? ` with ${result.errors.length} errors` : ''}`));
    },
  };
  const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...b, plugins: [...(b.plugins ?? []), announce] })));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
