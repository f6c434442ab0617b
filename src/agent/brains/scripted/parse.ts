/**
 * The scripted brain's command language. A prompt is read line by line: a line starting with `/`
 * starts a command; the lines and fenced blocks after it, up to the next command, belong to it.
 */

export interface ScriptCommand {
  name: string;
  /** The rest of the command line, after the name. */
  argText: string;
  /** Plain lines after the command (e.g. `/todo` items). */
  body: string[];
  /** Fenced blocks after the command, without their fences. */
  blocks: string[];
}

const COMMAND = /^\/([A-Za-z][\w-]*)(?:\s+(.*))?$/;
const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;

export function parseScript(text: string): ScriptCommand[] {
  const commands: ScriptCommand[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const current = commands[commands.length - 1];
    const open = FENCE_OPEN.exec(line);
    if (open?.[1] !== undefined) {
      const fence = open[1];
      const closes = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
      const content: string[] = [];
      for (i++; i < lines.length && !closes.test(lines[i] ?? ''); i++) content.push(lines[i] ?? '');
      current?.blocks.push(content.join('\n'));
      continue;
    }
    const command = COMMAND.exec(line.trim());
    if (command?.[1] !== undefined) {
      commands.push({ name: command[1].toLowerCase(), argText: (command[2] ?? '').trim(), body: [], blocks: [] });
      continue;
    }
    if (line.trim() !== '') current?.body.push(line);
  }
  return commands;
}

/** Splits arguments on spaces; "double" or 'single' quotes keep spaces in one argument. */
export function splitArgs(text: string): string[] {
  const args: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    args.push(match[1] ?? match[2] ?? match[3] ?? '');
  }
  return args;
}
