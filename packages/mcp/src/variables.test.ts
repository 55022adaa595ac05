// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the configuration format under test.
import { describe, expect, it } from 'vitest';
import { expandServerVariables, maskSecrets } from './variables.js';

describe('${VAR} references in env and headers', () => {
  it.each([
    ['a variable', 'Bearer ${TOKEN}', { TOKEN: 't1' }, 'Bearer t1', ['t1']],
    ['a default when unset', '${MISSING:-fallback}', {}, 'fallback', ['fallback']],
    ['the variable over its default', '${TOKEN:-fallback}', { TOKEN: 't2' }, 't2', ['t2']],
    ['two variables', '${A}:${B}', { A: 'x', B: 'y' }, 'x:y', ['x', 'y']],
    ['no reference', 'plain', {}, 'plain', []],
  ])('%s', (_name, value, env, expanded, secrets) => {
    const out = expandServerVariables('s', { url: 'https://x/mcp', headers: { H: value } }, env);
    expect(out.server).toEqual({ url: 'https://x/mcp', headers: { H: expanded } });
    expect(out.secrets).toEqual(secrets);
  });

  it('expands a stdio server’s env and leaves its command alone', () => {
    const out = expandServerVariables(
      's',
      { command: '${NOT_EXPANDED}', env: { K: '${KEY}' } },
      { KEY: 'k' },
    );
    expect(out.server).toEqual({ command: '${NOT_EXPANDED}', env: { K: 'k' } });
  });

  it('an unset variable without default is an error naming server, field and variable', () => {
    expect(() => expandServerVariables('api', { command: 'x', env: { K: '${NOPE}' } }, {})).toThrow(
      'MCP server "api": env.K refers to ${NOPE}, which is not set',
    );
  });

  it('masks every secret, the longest first', () => {
    expect(maskSecrets('token abc and abcdef', ['abc', 'abcdef'])).toBe('token *** and ***');
  });
});
