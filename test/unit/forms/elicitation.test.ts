import * as assert from 'node:assert/strict';
import type { ElicitationSchema } from '@agentclientprotocol/sdk';
import { defaultAnswers, parseElicitationSchema, validateAnswers } from '../../../src/extension/forms/model/elicitation';

const schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 10 },
    email: { type: 'string', format: 'email' },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }], default: 'g' },
    size: { type: 'string', enum: ['s', 'm'] },
    ok: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a'] } } as never,
  },
  required: ['name', 'count'],
};

describe('elicitation forms (schema → fields → validated answers)', () => {
  it('reads each property type, its title, required flag, default and enum options', () => {
    const { fields, unsupported } = parseElicitationSchema(schema);
    assert.deepEqual(fields.map((f) => [f.key, f.kind, f.required]), [
      ['name', 'string', true], ['email', 'string', false], ['code', 'string', false], ['count', 'integer', true],
      ['ratio', 'number', false], ['color', 'enum', false], ['size', 'enum', false], ['ok', 'boolean', false],
    ]);
    assert.deepEqual(unsupported, ['tags']);
    const color = fields.find((f) => f.key === 'color');
    assert.deepEqual(color?.kind === 'enum' && color.options, [{ value: 'r', title: 'Red' }, { value: 'g', title: 'Green' }]);
    assert.deepEqual(defaultAnswers(fields), { count: '3', color: 'g', ok: true });
    assert.deepEqual(parseElicitationSchema(undefined), { fields: [], unsupported: [] });
  });

  it('accepts valid answers, converted to the types asked for, leaving empty optional fields out', () => {
    const { fields } = parseElicitationSchema(schema);
    const result = validateAnswers(fields, { name: 'Ada', count: ' 4 ', ratio: '0.5', color: 'r', ok: false, email: '' });
    assert.deepEqual(result, { ok: true, content: { name: 'Ada', count: 4, ratio: 0.5, color: 'r', ok: false } });
  });

  it('names what is wrong with each field: required, lengths, pattern, format, integer, range, enum', () => {
    const { fields } = parseElicitationSchema(schema);
    const result = validateAnswers(fields, { name: 'A', email: 'nope', code: 'abc', count: '2.5', ratio: '3', color: 'x', size: 'xl' });
    assert.equal(result.ok, false);
    const errors = !result.ok ? result.errors : {};
    assert.match(errors.name ?? '', /at least 2 characters/);
    assert.match(errors.email ?? '', /email/);
    assert.match(errors.code ?? '', /format/);
    assert.match(errors.count ?? '', /whole number/);
    assert.match(errors.ratio ?? '', /at most 1/);
    assert.match(errors.color ?? '', /options/);
    assert.match(errors.size ?? '', /options/);
    const missing = validateAnswers(fields, {});
    assert.deepEqual(!missing.ok && Object.keys(missing.errors).sort(), ['count', 'name']);
  });

  it('survives a pattern it cannot compile (never blocks the answer)', () => {
    const { fields } = parseElicitationSchema({ properties: { p: { type: 'string', pattern: '(?<' } }, required: ['p'] });
    assert.deepEqual(validateAnswers(fields, { p: 'anything' }), { ok: true, content: { p: 'anything' } });
  });
});
