import { readFileSync } from 'node:fs';

/** Alive and not a zombie (a container's init may never reap). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Polls `check` until it holds or `ms` pass; returns its last answer. */
export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Reads a pid a test command wrote, waiting for the file to appear. */
export async function pidFrom(file: string): Promise<number> {
  let text = '';
  await eventually(() => {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return false;
    }
    return text.trim() !== '';
  });
  return Number.parseInt(text, 10);
}
