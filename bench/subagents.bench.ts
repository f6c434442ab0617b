/**
 * Subagents: 10 children × 1,000 tool calls against the same 10,000 calls in one session, through
 * the session core as AgentSessions wires it (UpdateRouter → KeyedSerialQueue → SessionState, a
 * child's own SessionState opened on its `subagent_update`), plus what the parent's chat rebuilds of
 * the children's blocks on each coalesced change (chat/model/chatSubagents.ts). Printed as the
 * ratio of the two, measured in the same run (target ≤ 1.2×). SKIP_BLOCKS=1 leaves the blocks out (the core alone).
 */
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { performance } from 'node:perf_hooks';
import { KeyedSerialQueue } from '../src/extension/base/serialQueue';
import { SessionState } from '../src/extension/session/model/sessionState';
import { EarlyUpdates } from '../src/extension/session/model/earlyUpdates';
import { UpdateRouter, type RoutedSession } from '../src/extension/session/model/updateRouting';
import { subagentItem, type SubagentLookup } from '../src/extension/chat/model/chatSubagents';

const CHILDREN = 10;
const CALLS = 10_000;
const REPS = Number(process.env.ACP_BENCH_SUBAGENT_REPS) || 25;

function calls(sessionId: string, count: number, from: number): SessionNotification[] {
  const out: SessionNotification[] = [];
  for (let i = from; i < from + count; i++) {
    const toolCallId = `toolu_${i}`;
    out.push({ sessionId, update: { sessionUpdate: 'tool_call', toolCallId, title: `Read src/file${i}.ts`, kind: 'read', status: 'in_progress', locations: [{ path: `/w/src/file${i}.ts` }] } });
    out.push({ sessionId, update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' } });
  }
  return out;
}

/** The stream Claude's adapter sends: each child announced on the parent, then the children's calls interleaved. */
function familyStream(): SessionNotification[] {
  const out: SessionNotification[] = [];
  const per = CALLS / CHILDREN;
  const streams: SessionNotification[][] = [];
  for (let c = 0; c < CHILDREN; c++) {
    out.push({ sessionId: 'p', update: { sessionUpdate: 'subagent_update', sessionId: `child${c}`, title: `Task ${c}`, capabilities: { cancel: {} }, state: { state: 'running' } } as unknown as SessionUpdate });
    streams.push(calls(`child${c}`, per, c * per));
  }
  for (let i = 0; i < streams[0]!.length; i++) for (const s of streams) out.push(s[i]!);
  return out;
}

interface Run {
  /** The whole run. */
  readonly ms: number;
  /** Of which building the parent's subagent blocks. */
  readonly blocksMs: number;
  readonly blocks: number;
  /** The parent and its lookup, to time the blocks alone afterwards. */
  readonly build: () => void;
}

function run(stream: readonly SessionNotification[]): Run {
  const sessions = new Map<string, RoutedSession<string>>();
  const queue = new KeyedSerialQueue();
  const pendingFlushes: (() => void)[] = [];
  // Coalesced as in the host: one flush every 500 updates stands for a 16 ms frame.
  const schedule = (flush: () => void) => pendingFlushes.push(flush);
  const lookup: SubagentLookup = {
    child: (_parent, childId) => {
      const child = sessions.get(childId);
      return child ? { sessionId: childId, state: child.state } : undefined;
    },
    callTitle: (call) => call.title,
  };
  const open = (sessionId: string): SessionState => {
    const state: SessionState = new SessionState({
      sessionId,
      cwd: '/w',
      schedule,
      onSubagent: ({ record, created }) => {
        if (created) sessions.set(record.childId, { state: open(record.childId), connection: 'agent' });
      },
    });
    return state;
  };
  const parent = open('p');
  sessions.set('p', { state: parent, connection: 'agent' });
  // The parent's chat rebuilds each child's block when the child changed (chatView.ts schedules it).
  parent.onDidChange(() => undefined);
  const router = new UpdateRouter<string>({
    queue,
    sessions,
    early: new EarlyUpdates({ maxHeld: 1000, maxOrphans: 2000, log: () => undefined }),
    clientIdOf: (_c, id) => id,
    onError: (_s, e) => {
      throw e;
    },
  });
  const build = (): void => {
    for (const record of parent.subagents) subagentItem(parent, record, lookup);
  };
  let blocksMs = 0;
  let blocks = 0;
  const start = performance.now();
  for (let i = 0; i < stream.length; i++) {
    router.receive(stream[i]!, 'agent');
    if (i % 500 === 499) {
      for (const flush of pendingFlushes.splice(0)) flush();
      if (!process.env.SKIP_BLOCKS) {
        const built = performance.now();
        build();
        blocksMs += performance.now() - built;
        blocks += parent.subagents.length;
      }
    }
  }
  for (const flush of pendingFlushes.splice(0)) flush();
  return { ms: performance.now() - start, blocksMs, blocks, build };
}

/** One block's cost alone, children at their full 1,000 calls: the least disturbed of 5 rounds. */
function microsPerBlock(family: Run): number {
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    for (let i = 0; i < 1000; i++) family.build();
    rounds.push(((performance.now() - start) * 1000) / (1000 * CHILDREN));
  }
  return Math.min(...rounds);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export default function subagentsBench(): void {
  const single = calls('p', CALLS, 0);
  const family = familyStream();
  run(single);
  run(family);
  const one: number[] = [];
  const ten: number[] = [];
  const core: number[] = [];
  let last: Run | undefined;
  for (let r = 0; r < REPS; r++) {
    one.push(run(single).ms);
    last = run(family);
    ten.push(last.ms);
    core.push(last.ms - last.blocksMs);
  }
  const ratio = median(ten) / median(one);
  // On a loaded machine other work only adds time: the fastest runs are the least disturbed.
  const fastest = Math.min(...ten) / Math.min(...one);
  console.log(`subagents: ${CHILDREN} children × ${CALLS / CHILDREN} tool calls vs ${CALLS} in one session (session core + chat blocks, median of ${REPS})`);
  console.log(`  one session ${median(one).toFixed(1)} ms · ${CHILDREN} children ${median(ten).toFixed(1)} ms · ratio ${ratio.toFixed(2)}× (fastest runs ${fastest.toFixed(2)}×; target ≤ 1.2×)`);
  if (!last || process.env.SKIP_BLOCKS) return;
  // The blocks' share, timed alone: a collection landing inside a build is the machine's, not the build's.
  const perBlock = microsPerBlock(last);
  const projected = (median(core) + (perBlock * last.blocks) / 1000) / median(one);
  console.log(`  core alone ${(median(core) / median(one)).toFixed(2)}× · a block ${perBlock.toFixed(2)} µs × ${last.blocks} per turn = ${((perBlock * last.blocks) / 1000).toFixed(2)} ms · core + blocks ${projected.toFixed(2)}×`);
}

if (process.argv[1]?.endsWith('subagents.bench.ts')) subagentsBench();
