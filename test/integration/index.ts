// Entry of the integration suite, loaded inside a real VS Code extension host by either launcher
// (harness/host/run-offline.mjs through code-server, harness/host/run-electron.mjs through
// @vscode/test-electron). It runs every bundled `*.test.js` next to it with mocha.
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import Mocha from 'mocha';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 60_000,
    reporter: 'spec',
    ...(process.env.ACP_TEST_GREP ? { grep: process.env.ACP_TEST_GREP } : {}),
  });
  const dir = __dirname;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(dir, file));
  }
  console.log(`Integration suite in VS Code ${vscode.version} (${vscode.env.appName}, ${process.platform}, Node ${process.versions.node})`);
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed.`);
}
