/**
 * The lines of the "ACP Trace" channel (pure): one per JSON-RPC message, saying which way it went,
 * what it is (request, response, notification, error), its method and id, and its size; at the
 * `verbose` level the body too, with secrets masked. Like an LSP client's `trace.server`.
 */

export type TraceLevel = 'off' | 'messages' | 'verbose';
export type TraceDirection = 'send' | 'receive';

export const MASK = '«masked»';

/** Keys whose values are secrets wherever they appear (`_meta["api-key"]`, tokens, passwords…). */
const SECRET_KEY = /(api[-_]?key|token|secret|passw(or)?d|authorization|cookie|credential|bearer)/i;
/** Arrays of `{name, value}` whose values may all be secrets: environment variables, HTTP headers. */
const NAME_VALUE_LISTS = new Set(['env', 'headers']);

/**
 * A copy of a JSON value with secrets replaced by {@link MASK}: values under secret-looking keys,
 * every value of `env` and `headers` (as `{name, value}` lists or as objects).
 */
export function maskSecrets(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) {
    if (NAME_VALUE_LISTS.has(key)) {
      return value.map((entry) => (typeof entry === 'object' && entry !== null && 'value' in entry ? { ...(entry as object), value: MASK } : maskSecrets(entry)));
    }
    return value.map((entry) => maskSecrets(entry));
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEY.test(k) && v !== null && typeof v !== 'object') out[k] = MASK;
      else if (NAME_VALUE_LISTS.has(k) && typeof v === 'object' && v !== null && !Array.isArray(v)) out[k] = Object.fromEntries(Object.keys(v).map((name) => [name, MASK]));
      else out[k] = maskSecrets(v, k);
    }
    return out;
  }
  return value;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Requests whose responses are still to come, per direction, so a response line can name its method. */
export class TraceFormatter {
  private readonly pending = new Map<string, string>();

  /** The trace line for one ndjson line, or undefined at level `off`. */
  format(direction: TraceDirection, line: string, level: TraceLevel): string | undefined {
    if (level === 'off') return undefined;
    const arrow = direction === 'send' ? '→' : '←';
    const size = formatSize(Buffer.byteLength(line, 'utf8'));
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${arrow} (not a JSON-RPC message, ${size})`;
      message = parsed as Record<string, unknown>;
    } catch {
      return `${arrow} (not JSON, ${size})`;
    }
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? String(message.id) : undefined;
    const method = typeof message.method === 'string' ? message.method : undefined;
    let head: string;
    if (method !== undefined && id !== undefined) {
      // A request's id is unique per sender: key by who sent it.
      this.pending.set(`${direction}:${id}`, method);
      head = `request #${id} ${method}`;
    } else if (method !== undefined) {
      head = `notification ${method}`;
    } else {
      const key = `${direction === 'send' ? 'receive' : 'send'}:${id ?? ''}`;
      const of = this.pending.get(key);
      this.pending.delete(key);
      head = `${'error' in message ? 'error' : 'response'} #${id ?? '?'}${of ? ` ${of}` : ''}`;
    }
    const summary = `${arrow} ${head} (${size})`;
    if (level === 'messages') return summary;
    return `${summary}\n${JSON.stringify(maskSecrets(message), null, 2)}`;
  }
}
