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
const REPS = 7;

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

function run(stream: readonly SessionNotification[]): number {
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
  const start = performance.now();
  for (let i = 0; i < stream.length; i++) {
    router.receive(stream[i]!, 'agent');
    if (i % 500 === 499) {
      for (const flush of pendingFlushes.splice(0)) flush();
      if (!process.env.SKIP_BLOCKS) for (const record of parent.subagents) subagentItem(parent, record, lookup);
    }
  }
  for (const flush of pendingFlushes.splice(0)) flush();
  return performance.now() - start;
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
  for (let r = 0; r < REPS; r++) {
    one.push(run(single));
    ten.push(run(family));
  }
  const ratio = median(ten) / median(one);
  console.log(`subagents: ${CHILDREN} children × ${CALLS / CHILDREN} tool calls vs ${CALLS} in one session (session core + chat blocks, median of ${REPS})`);
  console.log(`  one session ${median(one).toFixed(1)} ms · ${CHILDREN} children ${median(ten).toFixed(1)} ms · ratio ${ratio.toFixed(2)}× (target ≤ 1.2×)`);
}

if (process.argv[1]?.endsWith('subagents.bench.ts')) subagentsBench();
