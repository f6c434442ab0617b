/**
 * `/demo`: a tour that shows every card kind on the sample workspace (demo/workspace): reads,
 * a contextual edit, a write, a multi-site edit with one hunk per site, a command that prints over
 * time, a failing one, a background task with its controls, and the todo list as a plan.
 * It can run again and again: the edit toggles, and the multi-site file is rewritten first.
 */
import type { TurnContext } from '../types';

const GREETING = 'return `Hello, ${name}!`;';
const WELCOME = 'return `Hello, ${name}! Welcome to ACP Native.`;';

const STEPS = ['Read the project', 'Edit a function', 'Write and edit a file', 'Run commands', 'Run a background task'];

const TOUR_FILE = `// A file the demo writes, then edits in three places at once.
// TODO: greet the user

export function start() {
  return 'started';
}

function helper(value) {
  return value * 2;
}

// TODO: handle errors

export function compute(input) {
  const doubled = helper(input);
  return doubled + 1;
}

export function stop() {
  return 'stopped';
}

// TODO: clean up
`;

const isWindows = process.platform === 'win32';
// The agent's own runtime may be VS Code's Electron: it runs as Node only with this variable, which
// the commands the agent runs do not inherit.
const node = `set "ELECTRON_RUN_AS_NODE=1" && ${JSON.stringify(process.execPath)}`;

/** Prints three lines 300 ms apart, so the terminal visibly fills as the command runs. */
const SLOW_COMMAND = isWindows
  ? `${node} -e "let i=0;const t=setInterval(()=>{console.log('step '+(++i)+' of 3');if(i===3)clearInterval(t)},300)"`
  : `for i in 1 2 3; do echo "step $i of 3"; sleep 0.3; done`;
const FAILING_COMMAND = isWindows ? 'echo checking something & exit /b 3' : `echo "checking something"; exit 3`;
const TICKER_COMMAND = isWindows
  ? `${node} -e "setInterval(()=>console.log('tick '+new Date().toISOString()),250)"`
  : `while true; do echo "tick $(date +%T)"; sleep 0.25; done`;

export async function runDemo(turn: TurnContext): Promise<void> {
  const progress = async (done: number): Promise<void> => {
    await turn.runTool('todo', {
      todos: STEPS.map((content, i) => ({ content, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending' })),
    });
  };
  const stopped = (): boolean => turn.signal.aborted;

  turn.say('A tour of the cards this agent produces. First, a plan:\n\n');
  await progress(0);
  if (stopped()) return;
  turn.say('Reading files gives read cards that point at the file:\n\n');
  await turn.runTool('read', { path: 'README.md' });
  const greet = await turn.runTool('read', { path: 'src/greet.ts' });
  await progress(1);
  if (stopped()) return;

  if (greet.isError) {
    turn.say('There is no src/greet.ts here (run /demo in the sample workspace to see an edit of it).\n\n');
  } else {
    turn.say('An edit shows its snippet first, then the applied hunk with context:\n\n');
    const welcomed = greet.text.includes('Welcome to ACP Native');
    await turn.runTool('edit', { path: 'src/greet.ts', old_string: welcomed ? WELCOME : GREETING, new_string: welcomed ? GREETING : WELCOME });
  }
  await progress(2);
  if (stopped()) return;

  turn.say('A write shows the whole new file; an edit with replace_all gets one hunk per site:\n\n');
  await turn.runTool('write', { path: 'src/tour.js', content: TOUR_FILE });
  await turn.runTool('edit', { path: 'src/tour.js', old_string: 'TODO', new_string: 'DONE', replace_all: true });
  await progress(3);
  if (stopped()) return;

  turn.say('Commands run in a terminal card that fills as they print, and report how they ended:\n\n');
  await turn.runTool('bash', { command: SLOW_COMMAND, description: 'Print three lines, slowly' });
  if (stopped()) return;
  await turn.runTool('bash', { command: FAILING_COMMAND, description: 'A command that fails with exit code 3' });
  await progress(4);
  if (stopped()) return;

  turn.say('A background task keeps running; its output and stop controls are cards of their own:\n\n');
  const started = await turn.runTool('bash', { command: TICKER_COMMAND, run_in_background: true });
  const id = /\b(bg-\d+)\b/.exec(started.text)?.[1];
  if (id !== undefined && !started.isError) {
    await turn.runTool('task_output', { task_id: id, wait_ms: 1000 });
    await turn.runTool('task_kill', { task_id: id });
  }
  await progress(STEPS.length);
  turn.say('That was every card kind: read, diff (call-time and applied), terminal, generic, and the plan.');
}
