/**
 * CPU time of the browser showing the window (Linux /proc only), for the in-host benches: the test
 * host (harness/host/run-offline.mjs) launches Chromium next to code-server, so Chromium's processes
 * are the descendants of the extension host's launcher that are not code-server's. On this 2-core
 * machine what the window does with what the host sends it (the workbench and the webviews render
 * in its renderer processes) takes CPU the extension host then waits for.
 */
import * as fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function stat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces: the fields after it follow its closing parenthesis.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Chromium's processes under the launcher of this extension host; [] where there is no /proc or no launcher. */
function browserProcesses(): number[] {
  let launcher: number | undefined;
  for (let pid = process.ppid, depth = 0; pid > 1 && depth < 8; depth++) {
    if (commandLine(pid).includes('run-offline')) {
      launcher = pid;
      break;
    }
    pid = stat(pid)?.ppid ?? 0;
  }
  if (launcher === undefined) return [];
  let pids: number[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return [];
  }
  const parentOf = new Map(pids.map((pid) => [pid, stat(pid)?.ppid ?? 0]));
  const under = (pid: number): boolean => {
    for (let p = parentOf.get(pid), depth = 0; p && depth < 8; p = parentOf.get(p), depth++) if (p === launcher) return true;
    return false;
  };
  return pids.filter((pid) => under(pid) && /chrom/i.test(commandLine(pid).split(' ', 1)[0] ?? ''));
}

/** What `stop` tells: the browser's CPU in all (ms), and by process (its `--type`, `browser` for the main one), busiest first. */
export interface WindowCpu {
  readonly totalMs: number;
  readonly byProcess: string;
}

/** CPU the browser's processes used from now until `stop`; undefined where it cannot be read. */
export function startWindowCpu(): { stop(): WindowCpu | undefined } {
  const pids = browserProcesses();
  const types = new Map(pids.map((pid) => [pid, /--type=(\S+)/.exec(commandLine(pid))?.[1] ?? 'browser']));
  const ticks = () => new Map(pids.map((pid) => [pid, stat(pid)?.ticks ?? 0]));
  const before = ticks();
  return {
    stop: () => {
      if (pids.length === 0) return undefined;
      const after = ticks();
      const used = pids.map((pid) => ({ pid, ms: (((after.get(pid) ?? 0) - (before.get(pid) ?? 0)) * 1000) / TICKS_PER_SECOND })).filter((p) => p.ms > 0);
      used.sort((a, b) => b.ms - a.ms);
      return { totalMs: used.reduce((sum, p) => sum + p.ms, 0), byProcess: used.map((p) => `${types.get(p.pid)} ${p.ms}`).join(', ') };
    },
  };
}
