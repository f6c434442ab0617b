/**
 * The agent's structured questions (`elicitation/create`, form mode), pure: the requested schema
 * read into a closed list of fields, and what a person typed checked against it and converted to
 * the values the agent asked for. Both the inline form in the chat and the native input boxes use
 * these, so the rules are the same wherever the question is answered.
 */
import type { ElicitationContentValue, ElicitationSchema } from '@agentclientprotocol/sdk';
import type { ChatFormField } from '../../../protocol/chat';

export type FormField = ChatFormField;

export interface ParsedForm {
  readonly fields: readonly FormField[];
  /** Properties this client cannot show (an unknown type); when one is required the form cannot be answered. */
  readonly unsupported: readonly string[];
}

type Loose = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads the requested schema. Anything malformed becomes "unsupported" rather than an exception. */
export function parseElicitationSchema(schema: ElicitationSchema | undefined | null): ParsedForm {
  const properties = (schema?.properties ?? {}) as Record<string, Loose>;
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const fields: FormField[] = [];
  const unsupported: string[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    if (typeof raw !== 'object' || raw === null) {
      unsupported.push(key);
      continue;
    }
    const base = { key, title: str(raw.title) ?? key, description: str(raw.description), required: required.has(key) };
    switch (raw.type) {
      case 'string': {
        const options = enumOptions(raw);
        if (options) {
          const def = str(raw.default);
          fields.push({ ...base, kind: 'enum', options, default: def !== null && options.some((o) => o.value === def) ? def : null });
        } else {
          fields.push({
            ...base,
            kind: 'string',
            default: str(raw.default),
            minLength: num(raw.minLength),
            maxLength: num(raw.maxLength),
            pattern: str(raw.pattern),
            format: str(raw.format),
          });
        }
        break;
      }
      case 'number':
      case 'integer':
        fields.push({ ...base, kind: raw.type, default: num(raw.default), minimum: num(raw.minimum), maximum: num(raw.maximum) });
        break;
      case 'boolean':
        fields.push({ ...base, kind: 'boolean', default: typeof raw.default === 'boolean' ? raw.default : null });
        break;
      default:
        unsupported.push(key);
    }
  }
  return { fields, unsupported };
}

function enumOptions(raw: Loose): { value: string; title: string }[] | null {
  if (Array.isArray(raw.oneOf)) {
    const options = (raw.oneOf as Loose[]).flatMap((o) => (typeof o?.const === 'string' ? [{ value: o.const, title: str(o.title) ?? o.const }] : []));
    return options.length ? options : null;
  }
  if (Array.isArray(raw.enum)) {
    const values = raw.enum.filter((v): v is string => typeof v === 'string');
    const names = Array.isArray(raw.enumNames) ? raw.enumNames : [];
    return values.length ? values.map((value, i) => ({ value, title: str(names[i]) ?? value })) : null;
  }
  return null;
}

/** What a person entered: text for text-like fields, a boolean for checkboxes, absent when left empty. */
export type RawAnswers = Readonly<Record<string, string | boolean | undefined>>;

export type FormResult =
  | { readonly ok: true; readonly content: Record<string, ElicitationContentValue> }
  | { readonly ok: false; readonly errors: Record<string, string> };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The error for one field's raw answer, or the value to send (undefined: leave it out). */
export function checkField(field: FormField, raw: string | boolean | undefined): { error: string } | { value: ElicitationContentValue | undefined } {
  if (field.kind === 'boolean') {
    if (typeof raw === 'boolean') return { value: raw };
    if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
    return field.required ? { value: field.default ?? false } : { value: field.default ?? undefined };
  }
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return field.required ? { error: `${field.title} is required.` } : { value: undefined };
  switch (field.kind) {
    case 'string': {
      if (field.minLength !== null && text.length < field.minLength) return { error: `${field.title}: at least ${field.minLength} characters.` };
      if (field.maxLength !== null && text.length > field.maxLength) return { error: `${field.title}: at most ${field.maxLength} characters.` };
      if (field.pattern !== null && !safePattern(field.pattern).test(text)) return { error: `${field.title}: does not match the expected format.` };
      if (field.format === 'email' && !EMAIL.test(text)) return { error: `${field.title}: not an email address.` };
      if (field.format === 'uri' && !isUri(text)) return { error: `${field.title}: not a URI.` };
      if (field.format === 'date' && (!DATE.test(text) || Number.isNaN(Date.parse(text)))) return { error: `${field.title}: not a date (YYYY-MM-DD).` };
      if (field.format === 'date-time' && Number.isNaN(Date.parse(text))) return { error: `${field.title}: not a date and time.` };
      return { value: text };
    }
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return { error: `${field.title}: not a number.` };
      if (field.kind === 'integer' && !Number.isInteger(n)) return { error: `${field.title}: must be a whole number.` };
      if (field.minimum !== null && n < field.minimum) return { error: `${field.title}: at least ${field.minimum}.` };
      if (field.maximum !== null && n > field.maximum) return { error: `${field.title}: at most ${field.maximum}.` };
      return { value: n };
    }
    case 'enum':
      return field.options.some((o) => o.value === text) ? { value: text } : { error: `${field.title}: choose one of the options.` };
  }
}

/** Checks every field; the content to send when all are valid, else an error per field. */
export function validateAnswers(fields: readonly FormField[], answers: RawAnswers): FormResult {
  const content: Record<string, ElicitationContentValue> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const checked = checkField(field, answers[field.key]);
    if ('error' in checked) errors[field.key] = checked.error;
    else if (checked.value !== undefined) content[field.key] = checked.value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

/** The answers a form starts with: the schema's defaults. */
export function defaultAnswers(fields: readonly FormField[]): Record<string, string | boolean> {
  const answers: Record<string, string | boolean> = {};
  for (const field of fields) {
    if (field.default === null) continue;
    answers[field.key] = typeof field.default === 'boolean' ? field.default : String(field.default);
  }
  return answers;
}

function safePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // A pattern this engine cannot read must not block the answer.
    return /[\s\S]*/;
  }
}

function isUri(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(text);
}
