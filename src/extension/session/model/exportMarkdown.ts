import type { ContentBlock, ToolCallContent } from '@agentclientprotocol/sdk';
import { createTwoFilesPatch } from 'diff';
import type { ToolCallState } from './toolCalls';
import type { TranscriptEntry } from './transcript';

/** What the export reads of a session: its conversation, its calls, and terminal output by id. */
export interface ExportSource {
  readonly sessionId: string;
  readonly title: string | undefined;
  readonly transcript: readonly TranscriptEntry[];
  toolCall(id: string): ToolCallState | undefined;
  /** A terminal's output as its panel shows it, if it is still known. */
  terminalOutput(terminalId: string): string | undefined;
}

/**
 * The conversation as Markdown: messages under who said them, each tool call as a heading with
 * its status, its edits as unified ```diff fences and its output in fences. Thoughts are left
 * out (they are the agent's scratch work, not the conversation).
 */
export function exportMarkdown(source: ExportSource): string {
  const out: string[] = [`# ${oneLine(source.title ?? 'ACP session')}`, '', `Session \`${source.sessionId}\``];
  for (const entry of source.transcript) {
    switch (entry.type) {
      case 'message':
        if (entry.role === 'thought') break;
        out.push('', `## ${entry.role === 'user' ? 'User' : 'Agent'}`, '', entry.text.trim(), ...entry.blocks.map(blockLine));
        break;
      case 'toolCall': {
        const call = source.toolCall(entry.id);
        if (call) out.push('', ...toolCallMarkdown(call, source));
        break;
      }
      case 'plan':
      case 'compaction':
      case 'notice':
      case 'subagent':
        // Events are the chat's furniture; the export keeps what was said and done.
        break;
      default:
        entry satisfies never;
    }
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

function toolCallMarkdown(call: ToolCallState, source: ExportSource): string[] {
  const lines = [`### Tool call: ${oneLine(call.title || call.name || call.id)} (${call.status})`];
  const terminals = new Set<string>();
  for (const item of call.content) lines.push(...contentMarkdown(item, source, terminals));
  if (call.terminalId !== undefined && !terminals.has(call.terminalId)) lines.push(...terminalMarkdown(call.terminalId, source));
  return lines;
}

function contentMarkdown(item: ToolCallContent, source: ExportSource, terminals: Set<string>): string[] {
  switch (item.type) {
    case 'diff': {
      const patch = createTwoFilesPatch(item.path, item.path, item.oldText ?? '', item.newText, undefined, undefined, { context: 3 });
      // The "Index:" and "===" lines createTwoFilesPatch starts with are noise in a document.
      const body = patch.split('\n').filter((l, i) => !(i < 2 && (l.startsWith('Index: ') || l.startsWith('====')))).join('\n');
      return ['', fenced(body.trimEnd(), 'diff')];
    }
    case 'terminal':
      terminals.add(item.terminalId);
      return terminalMarkdown(item.terminalId, source);
    case 'content':
      return item.content.type === 'text' ? ['', fenced(item.content.text.trimEnd(), 'text')] : ['', blockLine(item.content)];
    default:
      return item satisfies never;
  }
}

function terminalMarkdown(terminalId: string, source: ExportSource): string[] {
  const raw = source.terminalOutput(terminalId);
  const output = raw === undefined ? '' : plainTerminalText(raw);
  return output.trim() === '' ? [] : ['', fenced(output.trimEnd(), 'text')];
}

/** A panel's text without its colours and cursor codes, with plain newlines: a document shows them as noise. */
export function plainTerminalText(text: string): string {
  return text
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[@-_]/g, '')
    .replace(/\r+\n/g, '\n')
    .replace(/\r/g, '');
}

/** A non-text block as one line: what it is and where it points. */
function blockLine(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `*(image ${block.mimeType})*`;
    case 'audio':
      return `*(audio ${block.mimeType})*`;
    case 'resource_link':
      return `*(link: ${block.uri})*`;
    case 'resource':
      return `*(resource: ${block.resource.uri})*`;
    default:
      return block satisfies never;
  }
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
export function fenced(text: string, info: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
