// A test agent with long turns that serves `_session/steering` as Claude's adapter 0.101 does
// (/work/shared/notes/acp-protocol.md "Steering and queueing"): `_meta.steering.supported: true` at
// the top level of the initialize result; a steer during a turn cuts the answer mid-word and is
// answered `{outcome: "injected"}` at once, the turn going on under a new messageId into the same
// `session/prompt`; with no turn running (and the `promptRequired` opt-in) `{outcome:
// "promptRequired", reason: "noRunningTurn"}`; another idleBehavior is -32602.
//
// Flags: `--no-steering` advertises nothing (and still counts any steer it gets);
// `--steering-meta JSON` advertises that `_meta` instead (a malformed one); `--steer-fail error`
// answers every steer with an error, `--steer-fail silent` never answers one, `--steer-fail late`
// takes it 4 s late (after the client stopped waiting); `--start-once FILE`
// starts once only: it creates FILE, and exits with code 4 at once when FILE is already there (a
// restart that fails).
//
// Prompts (the first line names the scenario):
//   work MS        "Working on it" then a word every 20 ms for MS ms (or until cancelled:
//                  `cancelled`; or steered: "Steered: TEXT", then end_turn)
//   work-tail MS   as work, and once cancelled one more chunk 100 ms later (a turn's tail)
//   refuse         stopReason refusal
//   die            a chunk, then (400 ms later) the process exits with code 3 mid-turn
//   steers?        answers with how many steers reached it, as JSON
//   anything else  "Received: " and the prompt's text
// `session/load` of an unknown id opens it empty (a restarted agent continues the editor's session).
import { existsSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';

type Client = acp.AgentContext;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i === -1 ? undefined : process.argv[i + 1];
}
const advertise = !process.argv.includes('--no-steering');
const customMeta = argValue('--steering-meta');
const steerFail = argValue('--steer-fail');
const startOnce = argValue('--start-once');
if (startOnce !== undefined) {
  if (existsSync(startOnce)) process.exit(4);
  writeFileSync(startOnce, 'started\n');
}

interface RunningTurn {
  cancelled: boolean;
  steer: string | undefined;
  wake: () => void;
}
const running = new Map<string, RunningTurn>();
let steersReceived = 0;
let nextSession = 1;
let nextMessage = 1;

const textOf = (blocks: readonly acp.ContentBlock[]) => blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');

function say(ctx: Client, sessionId: string, text: string, messageId: string): Promise<void> {
  return ctx.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId } });
}

async function work(ctx: Client, sessionId: string, ms: number, tail = false): Promise<acp.StopReason> {
  const turn: RunningTurn = { cancelled: false, steer: undefined, wake: () => undefined };
  running.set(sessionId, turn);
  try {
    const messageId = `m${nextMessage++}`;
    await say(ctx, sessionId, 'Working on it', messageId);
    const until = Date.now() + ms;
    while (Date.now() < until && !turn.cancelled && turn.steer === undefined) {
      await new Promise<void>((resolve) => {
        turn.wake = resolve;
        setTimeout(resolve, 20);
      });
      if (!turn.cancelled && turn.steer === undefined) await say(ctx, sessionId, ' wor', messageId);
    }
    if (turn.cancelled) {
      // As Claude's adapter: what was on its way still comes after the cancel.
      if (tail) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await say(ctx, sessionId, ' (the end of a cancelled turn)', messageId);
      }
      return 'cancelled';
    }
    if (turn.steer !== undefined) {
      // As Claude's adapter: the stream stops at once, the steer is answered, the model's reply to it comes a little later.
      await new Promise((resolve) => setTimeout(resolve, 30));
      await say(ctx, sessionId, `Steered: ${turn.steer}`, `m${nextMessage++}`);
    }
    else await say(ctx, sessionId, ' done.', messageId);
    return 'end_turn';
  } finally {
    running.delete(sessionId);
  }
}

async function prompt(ctx: Client, sessionId: string, blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
  const all = textOf(blocks);
  const [command, ...args] = (all.split('\n')[0] ?? '').trim().split(/\s+/);
  switch (command) {
    case 'work':
      return work(ctx, sessionId, Number(args[0] ?? 2000));
    case 'work-tail':
      return work(ctx, sessionId, Number(args[0] ?? 2000), true);
    case 'refuse':
      return 'refusal';
    case 'die':
      await say(ctx, sessionId, 'About to fall over', `m${nextMessage++}`);
      setTimeout(() => process.exit(3), 400);
      return new Promise<acp.StopReason>(() => undefined);
    case 'steers?':
      await say(ctx, sessionId, JSON.stringify({ steers: steersReceived }), `m${nextMessage++}`);
      return 'end_turn';
    default:
      await say(ctx, sessionId, `Received: ${all}`, `m${nextMessage++}`);
      return 'end_turn';
  }
}

interface SteerParams {
  sessionId: string;
  prompt: acp.ContentBlock[];
  _meta?: { steering?: { idleBehavior?: unknown } };
}

const parseSteer = (params: unknown): SteerParams => {
  const p = params as Partial<SteerParams> | null;
  if (!p || typeof p.sessionId !== 'string' || !Array.isArray(p.prompt)) throw acp.RequestError.invalidParams(params, 'sessionId and prompt are required');
  return p as SteerParams;
};

acp
  .agent({ name: 'steering-test-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } },
    agentInfo: { name: 'steering-test-agent', title: 'Steering test agent', version: '1.0.0' },
    ...(customMeta !== undefined ? { _meta: JSON.parse(customMeta) as Record<string, unknown> } : advertise ? { _meta: { steering: { supported: true } } } : {}),
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `steer_${nextSession++}` }))
  .onRequest(acp.methods.agent.session.load, () => ({}))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client: ctx }) => ({ stopReason: await prompt(ctx, params.sessionId, params.prompt) }))
  .onRequest('_session/steering', parseSteer, async ({ params }) => {
    steersReceived++;
    if (steerFail === 'error') throw acp.RequestError.internalError({}, 'steering is broken in this test agent');
    if (steerFail === 'silent') return new Promise<never>(() => undefined);
    if (steerFail === 'late') await new Promise((resolve) => setTimeout(resolve, 4000));
    const idle = params._meta?.steering?.idleBehavior;
    if (idle !== undefined && idle !== 'promptRequired') throw acp.RequestError.invalidParams(params, `idleBehavior ${String(idle)}`);
    const turn = running.get(params.sessionId);
    if (!turn) return idle === 'promptRequired' ? { outcome: 'promptRequired', reason: 'noRunningTurn' } : { outcome: 'startedNewTurn' };
    turn.steer = textOf(params.prompt);
    turn.wake();
    return { outcome: 'injected' };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const turn = running.get(params.sessionId);
    if (turn) {
      turn.cancelled = true;
      turn.wake();
    }
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
