/**
 * Figures for the bundled agent, each as a ratio to a baseline measured in the same run:
 * - applied-hunk diffs: a one-line edit and a full rewrite of 1 MB and 10 MB files (mutation through
 *   the file backend + hunk computation) against a plain read + write of the same file;
 * - replay of a 10,000-event session (read, validate, project to updates) against reading and
 *   JSON-parsing the same log file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { editText, writeText } from '../src/agent/files/local';
import { overwriteDiff, replacementDiff, type AppliedDiff } from '../src/agent/hunks';
import { Projector } from '../src/agent/projector';
import type { SessionEvent } from '../src/agent/sessionEvents';
import { SessionLog } from '../src/agent/sessionLog';

const MB = 1024 * 1024;

type Work = () => Promise<unknown> | unknown;

/**
 * Median wall times (ms) of a baseline and a candidate, run alternately after a warm-up of each,
 * so disk write-back and GC pressure weigh on both alike.
 */
async function compare(runs: number, baseline: Work, candidate: Work): Promise<[number, number]> {
  await baseline();
  await candidate();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, fn] of [baseline, candidate].entries()) {
      const start = performance.now();
      await fn();
      times[index]?.push(performance.now() - start);
    }
  }
  return [middle(times[0]), middle(times[1])];
}

async function median(runs: number, fn: Work): Promise<number> {
  return (await compare(runs, () => undefined, fn))[1];
}

function middle(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function textOfSize(bytes: number, variant: string): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `const value${i} = compute(${i}, '${variant}'); // lorem ipsum dolor sit amet`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

function describe(result: AppliedDiff): string {
  return result.kind === 'hunks' ? `${result.diffs.length} hunk(s)` : `whole file (${result.reason})`;
}

const pad = (value: string | number, width: number): string => String(value).padStart(width);
const ms = (value: number): string => value.toFixed(1);

async function hunkFigures(dir: string): Promise<void> {
  process.stdout.write('\nApplied-hunk diffs vs plain read+write of the same file (median ms)\n');
  process.stdout.write(`${'case'.padEnd(22)}${pad('size', 7)}${pad('read+write', 12)}${pad('agent', 10)}${pad('ratio', 8)}${pad('diff only', 11)}  result\n`);
  for (const size of [1 * MB, 10 * MB]) {
    const runs = size > MB ? 5 : 15;
    const file = path.join(dir, `file-${size}.ts`);
    const a = textOfSize(size, 'a');
    const b = textOfSize(size, 'b');
    writeFileSync(file, a);
    const plainReadWrite = async (): Promise<void> => writeFile(file, await readFile(file, 'utf8'));

    // One-line edit: toggled back and forth so every run really changes the file.
    let marked = false;
    const lineEdit = async (): Promise<AppliedDiff> => {
      const [from, to] = marked ? ["compute(5000, 'a'); // EDITED", "compute(5000, 'a');"] : ["compute(5000, 'a');", "compute(5000, 'a'); // EDITED"];
      marked = !marked;
      const facts = await editText(file, from, to, false);
      return replacementDiff(file, facts.before, facts.after, facts.sites);
    };
    const [editBaseline, editTime] = await compare(runs, plainReadWrite, lineEdit);
    const editResult = await lineEdit();
    const before = readFileSync(file, 'utf8');
    const editDiffOnly = await median(runs, () => {
      const at = before.indexOf("compute(5000, 'a');");
      const after = `${before.slice(0, at)}compute(5000, 'A');${before.slice(at + 19)}`;
      return replacementDiff(file, before, after, [{ beforeOffset: at, oldLength: 19, afterOffset: at, newLength: 19 }]);
    });
    row('one-line edit', size, editBaseline, editTime, editDiffOnly, describe(editResult));

    // Full rewrite: every line differs from the previous content.
    let flip = false;
    const rewrite = async (): Promise<AppliedDiff> => {
      flip = !flip;
      const facts = await writeText(file, flip ? b : a);
      return overwriteDiff(file, facts.before, facts.after);
    };
    const [rewriteBaseline, rewriteTime] = await compare(runs, plainReadWrite, rewrite);
    const rewriteResult = await rewrite();
    const rewriteDiffOnly = await median(runs, () => overwriteDiff(file, a, b));
    row('full rewrite', size, rewriteBaseline, rewriteTime, rewriteDiffOnly, describe(rewriteResult));
  }
}

function row(name: string, size: number, baseline: number, agent: number, diffOnly: number, result: string): void {
  process.stdout.write(
    `${name.padEnd(22)}${pad(`${size / MB} MB`, 7)}${pad(ms(baseline), 12)}${pad(ms(agent), 10)}${pad(`${(agent / baseline).toFixed(2)}x`, 8)}${pad(ms(diffOnly), 11)}  ${result}\n`,
  );
}

/** A realistic mix: prompts, messages, edits with hunks, commands with output, plans. */
function sessionEvents(count: number): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (let turn = 0; events.length < count; turn++) {
    const file = `/project/src/module${turn % 50}.ts`;
    const hunk = 'const a = 1;\nconst b = 2;\nconst c = 3;\nexport const value = compute(a, b);\nconst d = 4;\nconst e = 5;\nconst f = 6;';
    events.push(
      { type: 'user_message', content: [{ type: 'text', text: `Please update module ${turn} and run the tests.` }] },
      { type: 'agent_message', text: `I'll edit ${file} and then run the tests.` },
      { type: 'tool_call', toolCallId: `e${turn}`, tool: 'edit', args: { path: file, old_string: 'compute(a)', new_string: 'compute(a, b)' } },
      {
        type: 'tool_result',
        toolCallId: `e${turn}`,
        isError: false,
        text: `Edited ${file}: replaced 1 occurrence.`,
        meta: { diffs: [{ path: file, oldText: hunk.replace('a, b', 'a'), newText: hunk }], locations: [{ path: file, line: 10 }] },
      },
      { type: 'tool_call', toolCallId: `b${turn}`, tool: 'bash', args: { command: 'npm test', cwd: '/project' } },
      { type: 'tool_result', toolCallId: `b${turn}`, isError: false, text: 'ok\n[exit code 0]', meta: { output: `${'✓ a passing test\n'.repeat(12)}12 passing\n`, exitCode: 0 } },
      { type: 'plan', entries: [{ content: `module ${turn}`, priority: 'medium', status: 'completed' }] },
      { type: 'tool_call', toolCallId: `r${turn}`, tool: 'read', args: { path: file } },
      { type: 'tool_result', toolCallId: `r${turn}`, isError: false, text: Array.from({ length: 20 }, (_, i) => `${i + 1}\tconst x${i} = ${i};`).join('\n') },
      { type: 'agent_message', text: 'Done: the tests pass.' },
    );
  }
  return events.slice(0, count);
}

async function replayFigures(dir: string): Promise<void> {
  const count = 10_000;
  const log = SessionLog.create(dir, 'bench-session', '/project');
  const events = sessionEvents(count);
  const appendStart = performance.now();
  for (const event of events) log.append(event);
  const appendTime = performance.now() - appendStart;
  log.close();
  const size = readFileSync(log.file).length;

  let updates = 0;
  const [baseline, replay] = await compare(
    15,
    () => readFileSync(log.file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown),
    () => {
      const opened = SessionLog.open(dir, 'bench-session');
      opened?.log.close();
      const projector = new Projector({ cwd: '/project', terminalOutput: true });
      updates = (opened?.loaded.events ?? []).reduce((n, event) => n + projector.project(event).length, 0);
    },
  );

  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  process.stdout.write(`\nReplay of a ${count.toLocaleString('en')}-event session (${(size / MB).toFixed(1)} MB log, ${updates.toLocaleString('en')} updates) (median ms, load ${load})\n`);
  process.stdout.write(`${'read + JSON.parse'.padEnd(34)}${pad(ms(baseline), 9)}\n`);
  process.stdout.write(`${'replay (read, validate, project)'.padEnd(34)}${pad(ms(replay), 9)}${pad(`${(replay / baseline).toFixed(2)}x`, 9)}\n`);
  process.stdout.write(`${'(appending the events, once)'.padEnd(34)}${pad(ms(appendTime), 9)}\n`);
}

export default async function agentBench(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'acp-native-bench-'));
  try {
    await hunkFigures(dir);
    await replayFigures(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
