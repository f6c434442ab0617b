import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentProcess } from '../../src/extension/wire/agentProcess';

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };

/** Alive and not a zombie (a killed orphan may wait a moment, or forever in a container, to be reaped). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('stopping an agent', function () {
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-stop-'));
    // npm's codex-acp: a Node wrapper that runs the native agent with spawnSync and inherited stdio;
    // the native agent ignores the end of stdin and outlives a SIGTERM sent to the wrapper alone.
    fs.writeFileSync(
      path.join(dir, 'wrapper.js'),
      `require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(path.join(dir, 'native.js'))}], { stdio: 'inherit' });`,
    );
    fs.writeFileSync(
      path.join(dir, 'native.js'),
      `require('node:fs').writeFileSync(${JSON.stringify(path.join(dir, 'native.pid'))}, String(process.pid));\nprocess.stdin.resume();\nprocess.stdin.on('end', () => {});\nsetInterval(() => {}, 1000);`,
    );
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stops what the agent started too, instead of waiting forever for its output to close', async () => {
    const agent = new AgentProcess({ name: 'wrapped', command: process.execPath, args: [path.join(dir, 'wrapper.js')], env: {}, cwd: dir }, silent);
    const pidFile = path.join(dir, 'native.pid');
    const deadline = Date.now() + 10_000;
    // The file may exist before its content is written: wait for a whole pid.
    const readPid = () => (fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0);
    while (!(readPid() > 0)) {
      if (Date.now() > deadline) throw new Error('the native agent never started');
      await new Promise((r) => setTimeout(r, 20));
    }
    const nativePid = readPid();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      agent.stop(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('stop() did not return within 10 s')), 10_000))),
    ]).finally(() => clearTimeout(timer));
    assert.equal(agent.isAlive, false);
    // SIGTERM went to the whole group: the native agent dies with the wrapper.
    const gone = Date.now() + 5000;
    while (isRunning(nativePid) && Date.now() < gone) await new Promise((r) => setTimeout(r, 20));
    assert.equal(isRunning(nativePid), false, 'the native agent is gone');
  });
});
