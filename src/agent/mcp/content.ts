/**
 * Pure translations between MCP and the agent: a tool's annotations → the card's kind, a call's
 * result → the card's content (ACP content blocks, persisted for replay) and the text the model
 * reads, and MCP tools ↔ model-facing function names (`mcp__SERVER__TOOL`).
 */
import type { ContentBlock, ToolKind } from '@agentclientprotocol/sdk';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';

/** The kinds an MCP call's card may take; `other` unless the tool's annotations say more. */
export const MCP_CALL_KINDS = ['other', 'fetch', 'read', 'search'] as const satisfies readonly ToolKind[];
export type McpCallKind = (typeof MCP_CALL_KINDS)[number];

/**
 * The card kind a tool's annotations suggest. Annotations are hints (the spec says never to trust
 * them for safety), so they only choose an icon: permission is asked either way.
 */
export function kindFromAnnotations(tool: Pick<McpToolInfo, 'name' | 'annotations'>): McpCallKind {
  const a = tool.annotations;
  if (a?.readOnlyHint !== true) return 'other';
  if (a.openWorldHint === true) return /search|find|query|lookup/i.test(tool.name) ? 'search' : 'fetch';
  return /search|find|grep|query|lookup/i.test(tool.name) ? 'search' : 'read';
}

/** What a call gave back, for the card (ACP blocks) and for the model (text). */
export interface McpCallOutput {
  isError: boolean;
  blocks: ContentBlock[];
  text: string;
}

/** Text longer than this is cut for the model (the card keeps all of it). */
const MODEL_TEXT_LIMIT = 100_000;

export function callOutput(result: CallToolResult): McpCallOutput {
  const blocks: ContentBlock[] = [];
  const texts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        blocks.push({ type: 'text', text: item.text });
        texts.push(item.text);
        break;
      case 'image':
      case 'audio':
        blocks.push({ type: item.type, data: item.data, mimeType: item.mimeType });
        texts.push(`[${item.type} ${item.mimeType}, ${Math.round((item.data.length * 3) / 4)} bytes]`);
        break;
      case 'resource': {
        const r = item.resource;
        if ('text' in r && typeof r.text === 'string') {
          blocks.push({ type: 'resource', resource: { uri: r.uri, text: r.text, ...(r.mimeType ? { mimeType: r.mimeType } : {}) } });
          texts.push(`${r.uri}:\n${r.text}`);
        } else if ('blob' in r && typeof r.blob === 'string') {
          blocks.push({ type: 'resource', resource: { uri: r.uri, blob: r.blob, ...(r.mimeType ? { mimeType: r.mimeType } : {}) } });
          texts.push(`[${r.uri}: ${r.mimeType ?? 'binary'} content]`);
        }
        break;
      }
      case 'resource_link':
        blocks.push({
          type: 'resource_link',
          uri: item.uri,
          name: item.name,
          ...(item.mimeType ? { mimeType: item.mimeType } : {}),
          ...(item.description ? { description: item.description } : {}),
        });
        texts.push(`[${item.name}](${item.uri})`);
        break;
      default:
        break;
    }
  }
  // A tool may answer only with structured content; show it as JSON rather than nothing.
  if (blocks.length === 0 && result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent, null, 2);
    blocks.push({ type: 'text', text: json });
    texts.push(json);
  }
  let text = texts.join('\n');
  if (text === '') text = result.isError === true ? 'The tool failed without saying why.' : '(no output)';
  if (text.length > MODEL_TEXT_LIMIT) text = `${text.slice(0, MODEL_TEXT_LIMIT)}\n… (${text.length - MODEL_TEXT_LIMIT} more characters cut)`;
  return { isError: result.isError === true, blocks, text };
}

/** The name a model calls an MCP tool by. */
export const MCP_FUNCTION_PREFIX = 'mcp__';

/**
 * `mcp__SERVER__TOOL`, within what chat-completions APIs accept (`[A-Za-z0-9_-]{1,64}`). Names
 * that clash after cleaning get a numeric suffix, so every tool stays reachable.
 */
export function functionNames(tools: readonly { server: string; tool: string }[]): string[] {
  const taken = new Set<string>();
  return tools.map(({ server, tool }) => {
    const base = `${MCP_FUNCTION_PREFIX}${clean(server)}__${clean(tool)}`.slice(0, 64);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 64 - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name;
  });
}

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** Card title of a call: `SERVER: TOOL`. */
export function callTitle(server: string, tool: string): string {
  return `${server}: ${tool}`;
}
