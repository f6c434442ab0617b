import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { inWorkspace, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

/** A JSON-lines file the Claude-like test agent appends to (`--record-prompts`, `--record-forks`). */
function record<T>(name: string): { file: string; lines(): T[]; remove(): void } {
  const file = path.join(os.tmpdir(), `acp-resend-${name}-${process.pid}-${Date.now()}.jsonl`);
  return {
    file,
    lines: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as T) : []),
    remove: () => fs.rmSync(file, { force: true }),
  };
}

interface ForkRecord {
  from: string;
  sessionId: string;
  messageId: string | null;
  history: string[];
}

const roles = (api: AcpNativeApi, sessionId?: string) => api.conversation(sessionId).map((m) => `${m.role}: ${m.text}`);

/**
 * Two prompts, the second of which has the agent write `file` itself (as a command would): the
 * workspace checkpoints are what brings it back.
 */
async function twoTurns(api: AcpNativeApi, file: string): Promise<void> {
  fs.writeFileSync(inWorkspace(file), 'as the user left it\n');
  await within('first prompt', api.prompt('first question'));
  await within('second prompt', api.prompt(`write ${file}\nwritten by the agent`));
  assert.equal(fs.readFileSync(inWorkspace(file), 'utf8'), 'written by the agent');
}

describe('edit and resend: an agent that forks at a message', function () {
  let api: AcpNativeApi;
  const prompts = record<string[]>('fork-prompts');
  const forks = record<ForkRecord>('forks');
  const file = 'resend-fork.txt';

  agentSuite({ agent: { name: 'claude-like-fork', file: 'claudeLikeAgent', args: ['--fork', 'at-message', '--record-prompts', prompts.file, '--record-forks', forks.file] } }, (started) => (api = started));

  after(() => {
    prompts.remove();
    forks.remove();
    fs.rmSync(inWorkspace(file), { force: true });
  });

  it('restores the workspace, forks at the agent message before the edited one, and sends the edited text alone', async () => {
    await twoTurns(api, file);
    const old = api.activeSessionId;
    const before = roles(api);
    const branch = await within('resend', api.resendFrom(1, 'second question, edited'));
    assert.notEqual(branch, old);
    assert.equal(api.activeSessionId, branch, 'the chat shows the new branch');
    assert.equal(fs.readFileSync(inWorkspace(file), 'utf8'), 'as the user left it\n', 'the agent’s write is taken back');
    const fork = forks.lines().at(-1);
    assert.ok(fork, 'session/fork was sent');
    assert.match(fork.messageId ?? '', /^msg_/, 'with the messageId of the answer before the edited prompt');
    assert.deepEqual(fork.history, ['user: first question', 'agent: Received: first question'], 'the fork keeps the conversation up to that answer, inclusive');
    assert.deepEqual(prompts.lines().at(-1), ['second question, edited'], 'the agent has the history: the prompt is the edited text alone');
    assert.deepEqual(roles(api, branch), ['user: first question', 'agent: Received: first question', 'user: second question, edited', 'agent: Received: second question, edited']);
    assert.deepEqual(roles(api, old), before, 'the old branch is as it was');
    await waitFor('both branches labelled in Session History', async () => {
      const history = await api.sessionHistory();
      const title = (id: string | undefined) => history.find((h) => h.sessionId === id)?.title ?? '';
      return title(old).endsWith('(before edit)') && title(branch).endsWith('(edit of prompt 2)');
    });
  });

  it('edits the first prompt in a new session of its own: nothing came before it', async () => {
    const branch = await within('resend the first', api.resendFrom(0, 'first question, edited'));
    assert.deepEqual(roles(api, branch), ['user: first question, edited', 'agent: Received: first question, edited']);
    assert.deepEqual(prompts.lines().at(-1), ['first question, edited']);
  });

  it('cancels a running turn first, then goes on from before the prompt edited', async () => {
    const running = api.prompt('hold');
    await waitFor('the turn running', () => api.sessions().find((s) => s.active)?.busy === true);
    const old = api.activeSessionId;
    const turns = api.conversation().filter((m) => m.role === 'user').length;
    const branch = await within('resend during a turn', api.resendFrom(turns - 1, 'instead of holding'));
    assert.equal(await running, 'cancelled', 'the running turn was cancelled, not waited out');
    assert.notEqual(branch, old);
    const shown = roles(api, branch);
    assert.ok(!shown.includes('user: hold') && !shown.includes('agent: Holding.'), JSON.stringify(shown));
    assert.deepEqual(shown.slice(-2), ['user: instead of holding', 'agent: Received: instead of holding']);
  });

  it('refuses an empty text and a prompt that is not there, changing nothing', async () => {
    const open = api.sessions().length;
    await assert.rejects(api.resendFrom(0, '   '), /the edited message is empty/);
    await assert.rejects(api.resendFrom(7, 'x'), /no prompt 8/);
    assert.equal(api.sessions().length, open);
  });
});

describe('edit and resend: an agent that does not fork', function () {
  let api: AcpNativeApi;
  const prompts = record<string[]>('plain-prompts');
  const file = 'resend-plain.txt';

  agentSuite({ agent: { name: 'claude-like-plain', file: 'claudeLikeAgent', args: ['--record-prompts', prompts.file] } }, (started) => (api = started));

  after(() => {
    prompts.remove();
    fs.rmSync(inWorkspace(file), { force: true });
  });

  it('restores the workspace and starts a new session whose first prompt carries the conversation before the edited one', async () => {
    await twoTurns(api, file);
    const old = api.activeSessionId;
    const branch = await within('resend', api.resendFrom(1, 'second question, edited'));
    assert.notEqual(branch, old);
    assert.equal(api.activeSessionId, branch);
    assert.equal(fs.readFileSync(inWorkspace(file), 'utf8'), 'as the user left it\n');
    const sent = prompts.lines().at(-1)?.join('') ?? '';
    assert.match(sent, /<earlier-conversation>\nUser: first question\n\nAgent: Received: first question\n<\/earlier-conversation>/);
    assert.match(sent, /My message now:\n\nsecond question, edited$/);
    assert.doesNotMatch(sent, /written by the agent/, 'nothing from the edited prompt on');
    const shown = roles(api, branch);
    assert.deepEqual(shown.slice(0, 3), ['user: first question', 'agent: Received: first question', 'user: second question, edited'], 'the chat shows the edited text, not the context');
    const notice = api.notices(branch).at(-1);
    assert.equal(notice?.title, 'Continued from “first question” before prompt 2');
    assert.match(notice?.description ?? '', /^\S+ does not fork sessions: the conversation before it went to the agent as context with the edited message\.$/);
  });
});

describe('edit and resend: an agent that refuses session/fork', function () {
  let api: AcpNativeApi;
  const prompts = record<string[]>('refuse-prompts');

  agentSuite({ agent: { name: 'claude-like-refuse', file: 'claudeLikeAgent', args: ['--fork', 'refuse', '--record-prompts', prompts.file] } }, (started) => (api = started));

  after(() => prompts.remove());

  it('falls back to a new session with the conversation as context, and says why', async () => {
    await within('first prompt', api.prompt('first question'));
    await within('second prompt', api.prompt('second question'));
    const branch = await within('resend', api.resendFrom(1, 'second question, edited'));
    assert.match(prompts.lines().at(-1)?.join('') ?? '', /User: first question[\s\S]*My message now:\n\nsecond question, edited$/);
    const notice = api.notices(branch).at(-1);
    assert.match(notice?.description ?? '', /refused session\/fork \(.*forking is switched off in this agent.*\)/);
  });
});
