// A test agent that writes files itself after asking, as Claude's ACP adapter (0.101) does for
// its Write tool: the permission request carries the whole new file as a diff with `oldText: null`
// even when the file exists; once allowed, the agent writes the disk itself and completes the
// call. It serves `_session/steering` as the adapter does (`_meta.steering.supported: true`), so a
// test sees what the client tells it during the turn.
//
// Flags: `--no-steering` advertises no steering; `--steer-fail` advertises it but answers every
// steer with an error.
//
// Prompts (the first line names the scenario; CONTENT is the second line, a JSON string):
//   write-file PATH      asks to write CONTENT to PATH, writes it when allowed, completes the call,
//                        then keeps the turn open up to 5 s for a steer ("Steered: TEXT"); a
//                        rejection still waits (the client may steer the reason)
//   write-other PATH     the same question, but writes CONTENT with "surprise\n" appended
//   write-twice PATH     the same question; writes CONTENT, then CONTENT again in the same call
//   write-never PATH     the same question; writes nothing, and leaves the call in progress
//   patch-file PATH      as Codex 2.6 asks about a patch: the diff (old text = the file) only on the
//                        tool_call before, the question `{title: "Edit files", kind: "edit",
//                        locations}` with no diff and Codex's options; writes CONTENT when allowed
//   steers?              answers with the steers received, as JSON {"steers": [TEXT…]}
//   prompts?             answers with every prompt's text received, as JSON {"prompts": [TEXT…]}
//   anything else        "Received: " and the prompt's text
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { Readable, Writable } from 'node:stream';

type Client = acp.AgentContext;

const advertise = !process.argv.includes('--no-steering');
const steerFails = process.argv.includes('--steer-fail');
const steers: string[] = [];
const prompts: string[] = [];
const running = new Map<string, { steer: string | undefined; wake: () => void }>();
let nextSession = 1;
let nextId = 1;

const textOf = (blocks: readonly acp.ContentBlock[]) => blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

function update(ctx: Client, sessionId: string, u: acp.SessionUpdate): Promise<void> {
  return ctx.notify(acp.methods.client.session.update, { sessionId, update: u });
}

const say = (ctx: Client, sessionId: string, text: string) => update(ctx, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

async function askAsClaude(ctx: Client, sessionId: string, toolCallId: string, title: string, file: string, diff: acp.ToolCallContent): Promise<acp.RequestPermissionResponse> {
  await update(ctx, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Write', kind: 'edit', status: 'pending', rawInput: {}, content: [], locations: [] });
  await update(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, title, content: [diff], locations: [{ path: file }] });
  return ctx.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId, title, kind: 'edit', status: 'pending', content: [diff], locations: [{ path: file }] },
    options: [
      { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
      { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
      { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
    ],
  });
}

/** Codex 2.6: the diff comes with the call; its question names the files only. */
async function askAsCodex(ctx: Client, sessionId: string, toolCallId: string, file: string, diff: acp.ToolCallContent): Promise<acp.RequestPermissionResponse> {
  await update(ctx, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'Editing files', kind: 'edit', status: 'pending', content: [diff], locations: [{ path: file }] });
  return ctx.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall: { toolCallId, title: 'Edit files', kind: 'edit', locations: [{ path: file }] },
    options: [
      { optionId: 'allow_once', name: 'Yes, proceed', kind: 'allow_once' },
      { optionId: 'allow_for_session', name: "Yes, and don't ask again for these files", kind: 'allow_always' },
      { optionId: 'cancel', name: 'No, and tell Codex what to do differently', kind: 'reject_once' },
    ],
  });
}

/** True when the user allowed it. */
async function write(ctx: Client, sessionId: string, how: string, file: string, content: string): Promise<boolean> {
  const toolCallId = `toolu_disk_${nextId++}`;
  const title = `Write ${path.basename(file)}`;
  const codex = how === 'patch-file';
  const diff: acp.ToolCallContent = { type: 'diff', path: file, oldText: codex ? fs.readFileSync(file, 'utf8') : null, newText: content };
  const answer = codex ? await askAsCodex(ctx, sessionId, toolCallId, file, diff) : await askAsClaude(ctx, sessionId, toolCallId, title, file, diff);
  const allowed = answer.outcome.outcome === 'selected' && answer.outcome.optionId.startsWith('allow');
  if (!allowed) {
    await update(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'The user rejected it.' } }] });
    return false;
  }
  await update(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  if (how === 'write-never') return true;
  fs.writeFileSync(file, how === 'write-other' ? `${content}surprise\n` : content);
  if (how === 'write-twice') {
    await new Promise((r) => setTimeout(r, 100));
    fs.writeFileSync(file, content);
  }
  await update(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
  return true;
}

async function prompt(ctx: Client, sessionId: string, blocks: readonly acp.ContentBlock[]): Promise<acp.StopReason> {
  const all = textOf(blocks);
  prompts.push(all);
  // A note the client puts first (a block of its own) is not the scenario.
  const own = blocks.at(-1);
  const text = own?.type === 'text' ? own.text : all;
  const [first = '', second = '""'] = text.split('\n');
  const [command, arg = ''] = first.trim().split(/\s+/);
  switch (command) {
    case 'write-file':
    case 'write-other':
    case 'write-twice':
    case 'write-never':
    case 'patch-file': {
      const turn = { steer: undefined as string | undefined, wake: () => undefined as void };
      running.set(sessionId, turn);
      try {
        if (!(await write(ctx, sessionId, command, arg, JSON.parse(second) as string)) && !advertise) return 'end_turn';
        // The turn goes on a little, as the model would: the client may steer it meanwhile.
        const until = Date.now() + (advertise ? 5000 : 0);
        while (turn.steer === undefined && Date.now() < until) {
          await new Promise<void>((resolve) => {
            turn.wake = resolve;
            setTimeout(resolve, 50);
          });
        }
        await say(ctx, sessionId, turn.steer === undefined ? 'Done.' : `Steered: ${turn.steer}`);
      } finally {
        running.delete(sessionId);
      }
      return 'end_turn';
    }
    case 'steers?':
      await say(ctx, sessionId, JSON.stringify({ steers }));
      return 'end_turn';
    case 'prompts?':
      await say(ctx, sessionId, JSON.stringify({ prompts: prompts.slice(0, -1) }));
      return 'end_turn';
    default:
      await say(ctx, sessionId, `Received: ${all}`);
      return 'end_turn';
  }
}

interface SteerParams {
  sessionId: string;
  prompt: acp.ContentBlock[];
}

const parseSteer = (params: unknown): SteerParams => {
  const p = params as Partial<SteerParams> | null;
  if (!p || typeof p.sessionId !== 'string' || !Array.isArray(p.prompt)) throw acp.RequestError.invalidParams(params, 'sessionId and prompt are required');
  return p as SteerParams;
};

acp
  .agent({ name: 'disk-edit-test-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    agentInfo: { name: 'disk-edit-test-agent', title: 'Disk edit test agent', version: '1.0.0' },
    ...(advertise ? { _meta: { steering: { supported: true } } } : {}),
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `disk_${nextSession++}` }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client: ctx }) => ({ stopReason: await prompt(ctx, params.sessionId, params.prompt) }))
  .onRequest('_session/steering', parseSteer, ({ params }) => {
    const text = textOf(params.prompt);
    steers.push(text);
    if (steerFails) throw acp.RequestError.internalError({}, 'steering is broken in this test agent');
    const turn = running.get(params.sessionId);
    if (!turn) return { outcome: 'promptRequired', reason: 'noRunningTurn' };
    turn.steer = text;
    turn.wake();
    return { outcome: 'injected' };
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined)
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
