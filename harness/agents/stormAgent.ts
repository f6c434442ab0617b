// A benchmark agent: floods the client with `session/update`s as fast as it can write them.
// It is a real ACP agent on stdio (the SDK), started by the extension through `acpNative.agents`
// (see bench/host/treeStorm.ts). Each prompt is one line:
//   storm N [R]  N tool calls: each a `tool_call` then one or two `tool_call_update`s (2.5 N
//                messages), mixed kinds (read, edit with a diff, search, execute, fetch, think),
//                absolute paths in titles and locations, some failed; then `end_turn`. With R, paced
//                at R tool calls per second (an agent the client can keep up with); else flat out
//   baseline N [R]  the SAME number of messages, of the same sizes, as `agent_message_chunk`s: same
//                agent work, same bytes on the pipe, same SDK parsing on the client; only what the
//                client does with them differs (append to the transcript vs tool-call store + tree)
//   session/load of `storm_replay_N` (see stormMessages.ts)  replays a stored conversation of N
//                updates (user and agent text, the storm's tool calls), then answers
//   answer N BYTES [R]  one markdown answer of BYTES characters (headings, paragraphs, lists, code
//                fences, tables) streamed as N `agent_message_chunk`s cut at arbitrary characters,
//                as a model's tokens are; with R, paced at R chunks per second (bench/host/textStream.ts)
// Diff cards carry content but no terminal is announced: terminals are not what this measures.
import * as acp from '@agentclientprotocol/sdk';
import { benchAgent, pace, promptText, SendWindow, stdioStream } from './lib/agentKit';
import { chunkLike, replayCount, replayUpdates, toolCallMessages } from './lib/stormMessages';

type Client = acp.AgentContext;

/** Notifications written before waiting for the pipe to take them. */
const WINDOW = 256;

/** Sends `updates` as fast as the pipe takes them. */
async function send(client: Client, sessionId: string, updates: Iterable<acp.SessionUpdate>): Promise<void> {
  const window = new SendWindow(WINDOW);
  for (const update of updates) {
    if (window.add(client.notify(acp.methods.client.session.update, { sessionId, update }))) await window.drain();
  }
  await window.drain();
}

async function flood(client: Client, sessionId: string, count: number, cwd: string, asChunks: boolean, callsPerSecond: number): Promise<number> {
  const window = new SendWindow(WINDOW);
  let sent = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    // Paced: never ahead of `callsPerSecond` (checked every 10 calls, so timers stay coarse).
    await pace(window, i, start, callsPerSecond);
    for (const update of toolCallMessages(i, cwd)) {
      const full = window.add(client.notify(acp.methods.client.session.update, { sessionId, update: asChunks ? chunkLike(update, sent) : update }));
      sent++;
      if (full) await window.drain();
    }
  }
  await window.drain();
  return sent;
}

/** A long markdown answer of exactly `size` characters (ASCII): the blocks an agent writes, in turn. */
export function markdownAnswer(size: number): string {
  const blocks: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const block = [
      `## Step ${i}: what changes in module ${i % 97}\n\n`,
      `The function \`f${i}\` reads its input, checks it against **the schema**, and returns early when the value is ` +
        `missing. See [the notes](https://example.com/notes/${i}) for why it does not throw: callers retry, and a ` +
        `thrown error would lose the partial result that step ${i} already computed.\n\n`,
      `- keeps the cache warm for request ${i}\n- logs once per batch, not per item\n  - with the batch id\n- returns \`Result<T>\`\n\n`,
      '```ts\n' + `export function f${i}(input: Input): Result<number> {\n  if (!input.value) return { ok: false };\n  return { ok: true, value: input.value * ${i} };\n}\n` + '```\n\n',
      `| case | before | after |\n| --- | --- | --- |\n| ${i} | ${i * 3} ms | ${i * 2} ms |\n| ${i + 1} | ${i * 5} ms | ${i * 4} ms |\n\n`,
    ][i % 5] as string;
    blocks.push(block);
    length += block.length;
  }
  return blocks.join('').slice(0, size);
}

async function streamAnswer(client: Client, sessionId: string, chunks: number, size: number, chunksPerSecond: number): Promise<void> {
  const text = markdownAnswer(size);
  const window = new SendWindow(WINDOW);
  const start = performance.now();
  for (let i = 0; i < chunks; i++) {
    await pace(window, i, start, chunksPerSecond);
    const piece = text.slice(Math.floor((i * text.length) / chunks), Math.floor(((i + 1) * text.length) / chunks));
    const chunk: acp.SessionUpdate = { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: piece } };
    if (window.add(client.notify(acp.methods.client.session.update, { sessionId, update: chunk }))) await window.drain();
  }
  await window.drain();
}

const sessions = new Map<string, string>();

benchAgent('storm-agent', { prefix: 'storm', loadSession: true, sessions })
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const count = replayCount(params.sessionId);
    if (count === undefined) throw acp.RequestError.resourceNotFound(params.sessionId);
    sessions.set(params.sessionId, params.cwd);
    await send(client, params.sessionId, replayUpdates(count, params.cwd));
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = promptText(params.prompt);
    const [mode, ...numbers] = text.trim().split(/\s+/, 4);
    const [count = 1000, second = 0, third = 0] = numbers.map((n) => Number.parseInt(n, 10) || 0);
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    if (mode === 'answer' && count > 0 && second > 0) {
      await streamAnswer(client, params.sessionId, count, second, third);
    } else if ((mode === 'storm' || mode === 'baseline') && count > 0) {
      await flood(client, params.sessionId, count, cwd, mode === 'baseline', second);
    } else {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `usage: storm N [R] | baseline N [R] | answer N BYTES [R] (got "${text}")` } },
      });
    }
    return { stopReason: 'end_turn' };
  })
  .connect(stdioStream());
