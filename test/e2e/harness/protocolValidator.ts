/**
 * Validates every JSON-RPC message against the ACP v1 schema that ships in the SDK. Beyond the
 * schema's loose top level (which lets any params through as an "extension"), each request,
 * notification and response is checked against the exact definition of its method, found through
 * the schema's own `x-method` / `x-side` annotations; responses are matched to their requests.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';

export type Side = 'client' | 'agent';

interface MethodDefs {
  request?: string;
  response?: string;
  notification?: string;
}

type SchemaDef = { 'x-method'?: string; 'x-side'?: string };

export class ProtocolValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  /** Definitions by the side that HANDLES the method, then by method name. */
  private readonly methods: Record<Side | 'protocol', Map<string, MethodDefs>> = {
    client: new Map(),
    agent: new Map(),
    protocol: new Map(),
  };
  /** Requests each side sent, by id: their responses come from the other side. */
  private readonly pending: Record<Side, Map<string, string>> = { client: new Map(), agent: new Map() };
  readonly errors: string[] = [];
  count = 0;

  constructor() {
    // The schema's numeric formats, checked rather than ignored.
    const integer = (min: number, max: number) => ({ type: 'number' as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
    this.ajv.addFormat('uint16', integer(0, 0xffff));
    this.ajv.addFormat('uint32', integer(0, 0xffffffff));
    this.ajv.addFormat('uint64', integer(0, Number.MAX_SAFE_INTEGER));
    this.ajv.addFormat('int32', integer(-0x80000000, 0x7fffffff));
    this.ajv.addFormat('int64', integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
    this.ajv.addFormat('uri', (text: string) => URL.canParse(text));
    this.ajv.addFormat('double', { type: 'number', validate: (n: number) => Number.isFinite(n) });
    const schema = JSON.parse(readFileSync(require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json'), 'utf8')) as {
      $defs: Record<string, SchemaDef>;
    };
    this.ajv.addSchema(schema, 'acp');
    for (const [name, def] of Object.entries(schema.$defs)) {
      const method = def['x-method'];
      const side = def['x-side'];
      if (method === undefined || (side !== 'client' && side !== 'agent' && side !== 'protocol')) continue;
      const entry = this.methods[side].get(method) ?? {};
      if (name.endsWith('Request')) entry.request = name;
      else if (name.endsWith('Response')) entry.response = name;
      else if (name.endsWith('Notification')) entry.notification = name;
      this.methods[side].set(method, entry);
    }
  }

  /** Checks one message sent by `from`; problems are collected in `errors`. */
  check(from: Side, raw: string): void {
    this.count++;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      this.errors.push(`${from}: not JSON: ${raw.slice(0, 200)}`);
      return;
    }
    const envelope = from === 'agent' ? 'Agent' : 'Client';
    const kind = 'method' in message ? ('id' in message ? 'Request' : 'Notification') : 'Response';
    this.validate(`${envelope}${kind}`, message, from, raw);
    if (message.jsonrpc !== '2.0') this.errors.push(`${from}: jsonrpc is not "2.0": ${raw.slice(0, 200)}`);

    const handler: Side = from === 'agent' ? 'client' : 'agent';
    if (typeof message.method === 'string') {
      const method = message.method;
      const defs = this.methods[handler].get(method) ?? this.methods.protocol.get(method);
      const defName = kind === 'Request' ? defs?.request : defs?.notification;
      if (defName === undefined) {
        if (!method.startsWith('_')) this.errors.push(`${from}: ${method} is not an ACP v1 ${kind.toLowerCase()} for the ${handler}`);
      } else {
        this.validate(defName, message.params, from, raw);
      }
      if (kind === 'Request') this.pending[from].set(JSON.stringify(message.id), method);
      return;
    }
    // A response answers a request the OTHER side sent.
    const requester: Side = from === 'agent' ? 'client' : 'agent';
    const key = JSON.stringify(message.id);
    const method = this.pending[requester].get(key);
    this.pending[requester].delete(key);
    if ('error' in message) {
      this.validate('Error', message.error, from, raw);
      return;
    }
    if (method === undefined) {
      this.errors.push(`${from}: response to unknown request id ${key}`);
      return;
    }
    const defName = this.methods[from].get(method)?.response;
    if (defName !== undefined) this.validate(defName, message.result, from, raw);
    else if (!method.startsWith('_')) this.errors.push(`${from}: no response definition for ${method}`);
  }

  private validate(defName: string, value: unknown, from: Side, raw: string): void {
    const validator: ValidateFunction | undefined = this.ajv.getSchema(`acp#/$defs/${defName}`);
    if (validator === undefined) {
      this.errors.push(`no schema definition ${defName}`);
      return;
    }
    if (!validator(value)) {
      this.errors.push(`${from}: ${defName}: ${this.ajv.errorsText(validator.errors)} in ${raw.slice(0, 300)}`);
    }
  }
}
