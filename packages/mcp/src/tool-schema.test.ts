import { describe, expect, it } from 'vitest';
import { toToolParameters } from './tool-schema.js';

describe('a server’s input schema as tool parameters', () => {
  it('keeps the schema as written, without $schema', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        when: { type: 'string', format: 'date', description: 'Day' },
        n: { $ref: '#/$defs/n' },
      },
      required: ['when'],
      additionalProperties: false,
      $defs: { n: { type: 'integer', minimum: 1 } },
    };
    const { $schema: _dropped, ...kept } = schema;
    expect(toToolParameters(schema, 'Plan')).toEqual({ parameters: kept, description: 'Plan' });
  });

  it.each([
    ['no type and no properties', {}],
    ['properties that are not an object', { type: 'object', properties: [] }],
  ])('%s become an empty object schema', (_name, schema) => {
    expect(toToolParameters(schema, '').parameters).toEqual({ type: 'object', properties: {} });
  });

  it.each(['anyOf', 'oneOf', 'allOf'])(
    'a top-level %s moves into the description, not lost',
    (key) => {
      const branches = [{ required: ['a'] }, { required: ['b'] }];
      const { parameters, description } = toToolParameters(
        { type: 'object', properties: { a: {}, b: {} }, [key]: branches },
        'Pick one',
      );
      expect(parameters).not.toHaveProperty(key);
      expect(description).toBe(
        `Pick one\n\nThe arguments must also satisfy this JSON schema: ${JSON.stringify({ [key]: branches })}`,
      );
    },
  );
});
