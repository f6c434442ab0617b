// A test agent that sends plans, compactions, notices, usage and config options exactly as
// Claude's ACP adapter (0.101.0) does — with the client capabilities (`plan`, `session.compaction`,
// `session.notices`, `session.configOptions.boolean`) and, for a client without them, the
// adapter's stand-ins. It speaks the SDK's `/unstable` entry point, so the capabilities the client
// advertises reach it as sent. See /work/shared/notes/acp-protocol.md "Plans, compaction, notices".
//
// Flags: `--ignore-capabilities plan,compaction,notices,boolean` acts as if the client had not
// advertised those; `--no-compact-command` leaves `/compact` out of the commands; with
// `--record-prompts FILE` it appends each prompt's text blocks to FILE (one JSON array a line).
//
// Each prompt names a scenario on its first line (the rest of the prompt is its text):
//   /compact                  Claude's compaction: in_progress, completed with the summary, a
//                             second status-only completed, then usage_update with the tokens
//                             after (without the capability: the "Compact conversation" tool call)
//   compact-stall             a compaction that never completes (the turn ends with it in progress)
//   compact-fail              a compaction that fails ("Context too small")
//   compact-chunks N          the summary in N compaction_summary_chunks (not Claude; the spec)
//   plan-mode                 Claude's ExitPlanMode: "Approve Plan" asked with Claude's options;
//                             on approval the mode becomes the option's (default, auto,
//                             bypassPermissions), said in a message "Plan approved (ID): now in
//                             MODE mode.", and `plan_update` {markdown, planId "plan-mode"}
//                             follows (the rest of the prompt is the plan)
//   plan ID                   plan_update markdown of that id (the rest of the prompt)
//   plan-file ID PATH         plan_update {type: "file", uri: file://PATH}
//   plan-items ID             plan_update items (two entries)
//   plan-huge ID MB           a markdown plan of MB megabytes
//   plan-remove ID            plan_removed
//   mcp-broken                the notice of an MCP server that failed to start
//   warn TEXT                 a CLI warning
//   usage USED SIZE [COST]    usage_update (with `cost` {amount: COST, currency: "USD"} when given)
//   config?                   answers with the last session/set_config_option params as JSON
//   hold                      says so, then keeps the turn running until session/cancel (cancelled)
//   write PATH                writes the rest of the prompt to PATH (relative to the session's cwd)
//                             itself, as a command would: no tool call, no fs/* request
//   anything else             answers "Received: " and the prompt's text blocks; a prompt asking to
//                             "Summarize this conversation" gets a summary of the prompts so far
// `session/load` replays every update the session was sent (its prompts as user_message_chunk).
//
// `--fork at-message` advertises `sessionCapabilities.fork: {atMessageId: true}` (the draft
// fork-at-message RFD) and answers `session/fork {messageId}` with a session holding the log up to
// and including that message (no messageId: the whole log); its agent messages then carry a
// `messageId`. `--fork whole` advertises `fork: {}`; `--fork refuse` advertises as at-message but
// answers every `session/fork` with an error. `--record-forks FILE` appends each fork as a JSON
// line: {from, sessionId, messageId, history: ["user: …", "agent: …"]}.
import { appendFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk/unstable';

type Client = acp.AgentContext;

function argValue(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i === -1 ? undefined : process.argv[i + 1];
}
const ignored = new Set((argValue('--ignore-capabilities') ?? '').split(',').filter(Boolean));
const offersCompact = !process.argv.includes('--no-compact-command');
const recordPrompts = argValue('--record-prompts');
const forkMode = argValue('--fork') as 'at-message' | 'whole' | 'refuse' | undefined;
const recordForks = argValue('--record-forks');

/** What the client advertised (less what the flags ignore). */
const client = { plan: false, compaction: false, notices: false, boolean: false };

interface AgentSession {
  readonly cwd: string;
  readonly log: acp.SessionUpdate[];
  readonly prompts: string[];
  configOptions: acp.SessionConfigOption[];
  lastSetConfig: unknown;
  compactions: number;
  used: number;
}
const sessions = new Map<string, AgentSession>();
/** Turns held by `hold`, by session: a cancel lets them end. */
const held = new Map<string, () => void>();
const cancelled = new Set<string>();
let nextSession = 1;
let nextId = 1;

async function send(ctx: Client, sessionId: string, update: acp.SessionUpdate): Promise<void> {
  sessions.get(sessionId)?.log.push(update);
  await ctx.notify(acp.methods.client.session.update, { sessionId, update });
}

/** An agent message; with fork on, under a `messageId` of its own (what a fork is cut at). */
const say = (ctx: Client, sessionId: string, text: string) =>
  send(ctx, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, ...(forkMode ? { messageId: `msg_${nextId++}` } : {}) });

function textOf(update: acp.SessionUpdate): string {
  return 'content' in update && update.content && !Array.isArray(update.content) && update.content.type === 'text' ? update.content.text : '';
}

/** `session/fork`: a copy of the source's log, cut after the last update of `messageId` when given. */
function fork(params: { sessionId?: unknown; cwd?: unknown; messageId?: unknown }): acp.ForkSessionResponse {
  if (forkMode === 'refuse') throw acp.RequestError.internalError(undefined, 'forking is switched off in this agent');
  const source = typeof params.sessionId === 'string' ? sessions.get(params.sessionId) : undefined;
  if (!source) throw acp.RequestError.resourceNotFound(String(params.sessionId));
  const messageId = typeof params.messageId === 'string' ? params.messageId : undefined;
  if (messageId !== undefined && forkMode !== 'at-message') throw acp.RequestError.invalidParams(params, 'this agent forks whole sessions only');
  let end = source.log.length;
  if (messageId !== undefined) {
    let last = -1;
    source.log.forEach((u, i) => {
      if ('messageId' in u && u.messageId === messageId) last = i;
    });
    if (last < 0) throw acp.RequestError.invalidParams(params, `no message ${messageId} in session ${String(params.sessionId)}`);
    end = last + 1;
  }
  const log = source.log.slice(0, end);
  const sessionId = `claude_like_${nextSession++}`;
  const prompts = log.filter((u) => u.sessionUpdate === 'user_message_chunk').map(textOf);
  sessions.set(sessionId, { cwd: typeof params.cwd === 'string' ? params.cwd : source.cwd, log, prompts, configOptions: source.configOptions, lastSetConfig: undefined, compactions: 0, used: source.used });
  if (recordForks) {
    const history = log.flatMap((u) => (u.sessionUpdate === 'user_message_chunk' ? [`user: ${textOf(u)}`] : u.sessionUpdate === 'agent_message_chunk' ? [`agent: ${textOf(u)}`] : []));
    appendFileSync(recordForks, `${JSON.stringify({ from: params.sessionId, sessionId, messageId: messageId ?? null, history })}\n`);
  }
  return { sessionId, configOptions: source.configOptions };
}

function usage(ctx: Client, sessionId: string, used: number, size = 1_000_000, cost?: number): Promise<void> {
  const session = sessions.get(sessionId);
  if (session) session.used = used;
  return send(ctx, sessionId, {
    sessionUpdate: 'usage_update',
    used,
    size,
    ...(cost !== undefined ? { cost: { amount: cost, currency: 'USD' } } : {}),
    _meta: { '_claude/model': 'claude-opus-5-5' },
  });
}

function configOptions(): acp.SessionConfigOption[] {
  return [
    {
      id: 'mode',
      name: 'Mode',
      description: 'Session permission mode',
      category: 'mode',
      type: 'select',
      currentValue: 'default',
      options: [
        { value: 'default', name: 'Manual', description: 'Always ask before making changes' },
        { value: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
      ],
    },
    client.boolean
      ? { id: 'fast', name: 'Fast mode', description: 'Faster output, same model', type: 'boolean', currentValue: false }
      : { id: 'fast', name: 'Fast mode', description: 'Faster output, same model', type: 'select', currentValue: 'off', options: [{ value: 'off', name: 'off' }, { value: 'on', name: 'on' }] },
  ];
}

const COMPACT_META = { claudeCode: { toolName: 'compact' } };
const SUMMARY = 'The user asked to fix the parser. Read src/parse.ts and fixed the off-by-one in the tokenizer. Left: add a test.';

async function compact(ctx: Client, sessionId: string, how: 'complete' | 'stall' | 'fail' | { chunks: number }): Promise<void> {
  const session = sessions.get(sessionId);
  const id = `compact-${session ? ++session.compactions : 0}-${nextId++}`;
  const before = session?.used ?? 0;
  if (!client.compaction) {
    // Claude's adapter without the capability: a tool call standing for the compaction.
    await send(ctx, sessionId, { sessionUpdate: 'tool_call', toolCallId: id, title: 'Compact conversation', kind: 'think', status: 'in_progress', _meta: COMPACT_META });
    await send(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress', _meta: COMPACT_META });
    if (how === 'stall') return;
    if (how === 'fail') {
      await send(ctx, sessionId, {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'Compaction failed: Context too small' } }],
        _meta: COMPACT_META,
      });
      return;
    }
    const rawOutput = { trigger: 'manual', preTokens: before, postTokens: 40_000, durationMs: 9000 };
    await send(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed', rawOutput, _meta: COMPACT_META });
    await usage(ctx, sessionId, 40_000);
    return;
  }
  await send(ctx, sessionId, { sessionUpdate: 'compaction_update', compactionId: id, status: 'in_progress' });
  if (how === 'stall') return;
  if (how === 'fail') {
    await send(ctx, sessionId, { sessionUpdate: 'compaction_update', compactionId: id, status: 'failed', error: 'Context too small' });
    return;
  }
  if (typeof how === 'object') {
    for (let i = 0; i < how.chunks; i++) await send(ctx, sessionId, { sessionUpdate: 'compaction_summary_chunk', compactionId: id, content: { type: 'text', text: `Part ${i + 1}. ` } });
    await send(ctx, sessionId, { sessionUpdate: 'compaction_update', compactionId: id, status: 'completed' });
  } else {
    await send(ctx, sessionId, { sessionUpdate: 'compaction_update', compactionId: id, status: 'completed', summary: [{ type: 'text', text: SUMMARY }] });
    // Claude's adapter repeats the terminal status once more, without the summary.
    await send(ctx, sessionId, { sessionUpdate: 'compaction_update', compactionId: id, status: 'completed' });
  }
  await usage(ctx, sessionId, 40_000);
}

async function planUpdate(ctx: Client, sessionId: string, plan: acp.PlanUpdateContent): Promise<void> {
  // Without the capability Claude's adapter sends no plan at all.
  if (client.plan) await send(ctx, sessionId, { sessionUpdate: 'plan_update', plan });
}

/** The mode each of Claude's plan approvals leaves plan mode for; `reject` keeps planning. */
const PLAN_EXIT_MODES: Record<string, string> = {
  'exit-plan-default': 'default',
  'exit-plan-clear-auto': 'auto',
  'exit-plan-auto': 'auto',
  'exit-plan-bypass': 'bypassPermissions',
};

async function planMode(ctx: Client, sessionId: string, plan: string): Promise<void> {
  const toolCallId = `toolu_exit_plan_${nextId++}`;
  const planFilePath = '/home/user/.claude/plans/fix-the-parser.md';
  await send(ctx, sessionId, { sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
  const toolCall = { toolCallId, title: 'Approve Plan', kind: 'switch_mode' as const, status: 'pending' as const, rawInput: { plan, planFilePath }, content: [{ type: 'content' as const, content: { type: 'text' as const, text: plan } }] };
  await send(ctx, sessionId, { sessionUpdate: 'tool_call', ...toolCall });
  const answer: acp.RequestPermissionResponse = await ctx.request(acp.methods.client.session.requestPermission, {
    sessionId,
    toolCall,
    options: [
      { optionId: 'exit-plan-default', name: 'Yes, manually approve edits', kind: 'allow_once' },
      { optionId: 'exit-plan-clear-auto', name: 'Yes, clear context (12% used) and use auto mode', kind: 'allow_always' },
      { optionId: 'exit-plan-auto', name: 'Yes, and use auto mode', kind: 'allow_always' },
      { optionId: 'exit-plan-bypass', name: 'Yes, and bypass permissions', kind: 'allow_always' },
      { optionId: 'reject', name: 'No, keep planning', kind: 'reject_once' },
    ],
  });
  const picked = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : undefined;
  const mode = picked === undefined ? undefined : PLAN_EXIT_MODES[picked];
  if (mode === undefined) {
    await send(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
    return;
  }
  // Each approval leaves plan mode for another mode; the test agent also says which it got.
  await send(ctx, sessionId, { sessionUpdate: 'current_mode_update', currentModeId: mode });
  await send(ctx, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Plan approved (${picked}): now in ${mode} mode.` } });
  await send(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', title: 'Exited Plan Mode' });
  await planUpdate(ctx, sessionId, { type: 'markdown', planId: 'plan-mode', content: plan.replace(/\n+$/, '') });
}

async function notice(ctx: Client, sessionId: string, kind: 'mcp' | 'warning', text: string): Promise<void> {
  if (client.notices) {
    await send(
      ctx,
      sessionId,
      kind === 'mcp'
        ? { sessionUpdate: 'notice', severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' }
        : { sessionUpdate: 'notice', severity: 'warning', title: 'Claude reported a warning', description: text },
    );
    return;
  }
  // Without the capability: a bold agent message whose `_meta.claudeCode` says what it is.
  await send(
    ctx,
    sessionId,
    kind === 'mcp'
      ? {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: '**MCP server "broken" failed to start:** Its tools are unavailable in this session. Run /mcp for the error.' },
          _meta: { claudeCode: { kind: 'mcpServerStatus', server: 'broken', status: 'failed' } },
        }
      : { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `**Warning:** ${text}` }, _meta: { claudeCode: { kind: 'informational', level: 'warning' } } },
  );
}

async function prompt(ctx: Client, sessionId: string, blocks: readonly acp.ContentBlock[]): Promise<void> {
  const session = sessions.get(sessionId);
  const all = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  session?.prompts.push(all);
  if (recordPrompts) appendFileSync(recordPrompts, `${JSON.stringify(blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])))}\n`);
  for (const block of blocks) session?.log.push({ sessionUpdate: 'user_message_chunk', content: block });
  const [first = '', ...restLines] = (blocks[0]?.type === 'text' ? blocks[0].text : '').split('\n');
  const rest = restLines.join('\n');
  const [command, ...args] = first.trim().split(/\s+/);
  switch (command) {
    case '/compact':
      return compact(ctx, sessionId, 'complete');
    case 'compact-stall':
      return compact(ctx, sessionId, 'stall');
    case 'compact-fail':
      return compact(ctx, sessionId, 'fail');
    case 'compact-chunks':
      return compact(ctx, sessionId, { chunks: Number(args[0] ?? 3) });
    case 'plan-mode':
      return planMode(ctx, sessionId, rest || '# Fix the parser\n\n1. Read `src/parse.ts`\n2. Fix the tokenizer\n3. Add a test\n');
    case 'plan':
      return planUpdate(ctx, sessionId, { type: 'markdown', planId: args[0] ?? 'plan', content: rest });
    case 'plan-file':
      return planUpdate(ctx, sessionId, { type: 'file', planId: args[0] ?? 'file-plan', uri: pathToFileURL(args[1] ?? '/nonexistent').href });
    case 'plan-items':
      return planUpdate(ctx, sessionId, {
        type: 'items',
        planId: args[0] ?? 'items',
        entries: [
          { content: 'Read the parser', priority: 'high', status: 'completed' },
          { content: 'Fix the tokenizer', priority: 'high', status: 'in_progress' },
        ],
      });
    case 'plan-huge': {
      const line = '- A step of the huge plan, described at some length so the lines are long.\n';
      const content = `# Huge plan\n\n${line.repeat(Math.ceil((Number(args[1] ?? 1) * 1024 * 1024) / line.length))}`;
      return planUpdate(ctx, sessionId, { type: 'markdown', planId: args[0] ?? 'huge', content });
    }
    case 'plan-remove':
      if (client.plan) await send(ctx, sessionId, { sessionUpdate: 'plan_removed', planId: args[0] ?? 'plan' });
      return;
    case 'mcp-broken':
      return notice(ctx, sessionId, 'mcp', '');
    case 'warn':
      return notice(ctx, sessionId, 'warning', args.join(' '));
    case 'usage':
      return usage(ctx, sessionId, Number(args[0] ?? 0), Number(args[1] ?? 1_000_000), args[2] === undefined ? undefined : Number(args[2]));
    case 'config?':
      return say(ctx, sessionId, JSON.stringify(session?.lastSetConfig ?? null));
    case 'hold':
      await say(ctx, sessionId, 'Holding.');
      await new Promise<void>((resolve) => held.set(sessionId, resolve));
      return;
    case 'write':
      writeFileSync(resolve(session?.cwd ?? '.', args[0] ?? 'out.txt'), rest);
      return say(ctx, sessionId, `Wrote ${args[0] ?? 'out.txt'}.`);
    default:
      if (all.includes('Summarize this conversation')) {
        return say(ctx, sessionId, `Summary: the user asked ${JSON.stringify((session?.prompts ?? []).slice(0, -1))}.`);
      }
      return say(ctx, sessionId, `Received: ${all}`);
  }
}

acp
  .agent({ name: 'claude-like-test-agent' })
  .onRequest(acp.methods.agent.initialize, ({ params }) => {
    const caps = params.clientCapabilities;
    client.plan = caps?.plan != null && !ignored.has('plan');
    client.compaction = caps?.session?.compaction != null && !ignored.has('compaction');
    client.notices = caps?.session?.notices != null && !ignored.has('notices');
    client.boolean = caps?.session?.configOptions?.boolean != null && !ignored.has('boolean');
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { embeddedContext: true },
        // `atMessageId` is the draft RFD's, in no SDK 2.4 schema.
        ...(forkMode ? { sessionCapabilities: { fork: (forkMode === 'whole' ? {} : { atMessageId: true }) as acp.SessionForkCapabilities } } : {}),
      },
      agentInfo: { name: '@agentclientprotocol/claude-agent-acp', title: 'Claude-like test agent', version: '0.101.0' },
    };
  })
  .onRequest(acp.methods.agent.session.new, async ({ params, client: ctx }) => {
    const sessionId = `claude_like_${nextSession++}`;
    const options = configOptions();
    sessions.set(sessionId, { cwd: params.cwd, log: [], prompts: [], configOptions: options, lastSetConfig: undefined, compactions: 0, used: 0 });
    await send(ctx, sessionId, {
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        ...(offersCompact ? [{ name: 'compact', description: 'Free up context by summarizing the conversation so far', input: { hint: '<optional custom summarization instructions>' } }] : []),
        { name: 'mcp', description: 'Show the MCP servers and their status, or reconnect a server', input: { hint: 'reconnect [server]' } },
      ],
    });
    return { sessionId, configOptions: options };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client: ctx }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.resourceNotFound(params.sessionId);
    for (const update of session.log) await ctx.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
    return { configOptions: session.configOptions };
  })
  .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
    const session = sessions.get(params.sessionId);
    if (!session) throw acp.RequestError.resourceNotFound(params.sessionId);
    session.lastSetConfig = params;
    session.configOptions = session.configOptions.map((option) => {
      if (option.id !== params.configId) return option;
      if (option.type === 'boolean') {
        if (!('type' in params) || params.type !== 'boolean') throw acp.RequestError.invalidParams(params, `${option.id} is a boolean option`);
        return { ...option, currentValue: params.value };
      }
      if ('type' in params && params.type === 'boolean') throw acp.RequestError.invalidParams(params, `${option.id} is a select`);
      return { ...option, currentValue: String(params.value) };
    });
    return { configOptions: session.configOptions };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client: ctx }) => {
    await prompt(ctx, params.sessionId, params.prompt);
    return { stopReason: cancelled.delete(params.sessionId) ? ('cancelled' as const) : ('end_turn' as const) };
  })
  // Raw params: the SDK's schema would strip the draft RFD's `messageId`.
  .onRequest('session/fork', (params: unknown) => params as { sessionId?: unknown; cwd?: unknown; messageId?: unknown }, ({ params }) => {
    if (!forkMode) throw acp.RequestError.methodNotFound('session/fork');
    return fork(params);
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const release = held.get(params.sessionId);
    if (!release) return;
    held.delete(params.sessionId);
    cancelled.add(params.sessionId);
    release();
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
