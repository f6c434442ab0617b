/**
 * A loopback HTTP server speaking the streaming chat-completions wire format (server-sent events
 * of `chat.completion.chunk`s, then `[DONE]`): the only stand-in in these tests, for a model.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelReply {
  reasoning?: string[];
  text?: string[];
  toolCalls?: { name: string; arguments: string }[];
  finishReason?: string;
  /** Pause between chunks, to make streaming observable. */
  delayMs?: number;
  /** Answer with this HTTP error status instead. */
  status?: number;
}

export interface ModelRequest {
  headers: IncomingHttpHeaders;
  body: {
    model: string;
    stream: boolean;
    messages: { role: string; content: unknown; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
    tools?: { type: string; function: { name: string; parameters: unknown } }[];
  };
}

export class FakeModel {
  readonly requests: ModelRequest[] = [];
  private server: Server | undefined;

  constructor(private readonly script: (request: ModelRequest, index: number) => ModelReply) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const request: ModelRequest = { headers: req.headers, body: JSON.parse(raw) as ModelRequest['body'] };
        this.requests.push(request);
        const reply = this.script(request, this.requests.length - 1);
        if (req.url !== '/v1/chat/completions' || reply.status !== undefined) {
          res.writeHead(reply.status ?? 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'invalid_request_error' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        void this.stream(reply, (data) => res.write(`data: ${data}\n\n`)).then(() => res.end());
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async stream(reply: ModelReply, send: (data: string) => void): Promise<void> {
    const chunk = (delta: object, finish: string | null = null): string =>
      JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 0, model: 'test-model', choices: [{ index: 0, delta, finish_reason: finish }] });
    const pause = (): Promise<void> => new Promise((r) => setTimeout(r, reply.delayMs ?? 0));
    send(chunk({ role: 'assistant', content: '' }));
    for (const piece of reply.reasoning ?? []) {
      await pause();
      send(chunk({ reasoning_content: piece }));
    }
    for (const piece of reply.text ?? []) {
      await pause();
      send(chunk({ content: piece }));
    }
    (reply.toolCalls ?? []).forEach((call, index) => {
      // Arguments arrive in fragments, as real servers send them.
      const half = Math.floor(call.arguments.length / 2);
      send(chunk({ tool_calls: [{ index, id: `model_call_${index}`, type: 'function', function: { name: call.name, arguments: call.arguments.slice(0, half) } }] }));
      send(chunk({ tool_calls: [{ index, function: { arguments: call.arguments.slice(half) } }] }));
    });
    send(chunk({}, reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop')));
    send('[DONE]');
  }
}
