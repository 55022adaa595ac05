// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the configuration format under test.
import { describe, expect, it } from 'vitest';
import { parseMcpConfig, parseMcpConfigText } from './config-file.js';

const FILE = '/repo/.mcp.json';

describe('the mcpServers of a configuration file', () => {
  it('reads stdio and HTTP servers in the common format, other keys left alone', () => {
    const servers = parseMcpConfig(
      {
        mcpServers: {
          everything: { command: 'npx', args: ['-y', 'server-everything'], env: { A: '1' } },
          web: {
            type: 'http',
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: 'Bearer ${T}' },
          },
        },
        otherProgram: { whatever: true },
      },
      FILE,
    );
    expect(servers).toEqual({
      everything: { command: 'npx', args: ['-y', 'server-everything'], env: { A: '1' } },
      web: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer ${T}' },
      },
    });
  });

  it('a file without mcpServers has no servers', () => {
    expect(parseMcpConfig({}, FILE)).toEqual({});
  });

  it.each([
    [
      'a file that is not an object',
      [],
      /\/repo\/\.mcp\.json: expected an object with "mcpServers"/,
    ],
    [
      'args that are not strings',
      { mcpServers: { a: { command: 'x', args: [1] } } },
      /\/repo\/\.mcp\.json: server "a": args\.0: /,
    ],
    [
      'an empty command',
      { mcpServers: { a: { command: '' } } },
      /server "a": command: command must name the program/,
    ],
    [
      'a url that is not http',
      { mcpServers: { a: { url: 'ftp://x/y' } } },
      /server "a": url: url must be an http/,
    ],
    [
      'a header that is not a string',
      { mcpServers: { a: { url: 'https://x/mcp', headers: { H: 1 } } } },
      /server "a": headers\.H: /,
    ],
    [
      'an unknown field',
      { mcpServers: { a: { command: 'x', comand: 'y' } } },
      /server "a": .*comand/,
    ],
    ['neither command nor url', { mcpServers: { a: {} } }, /server "a": command: /],
    [
      'a name with a dot',
      { mcpServers: { 'a.b': { command: 'x' } } },
      /server "a\.b": a server name may use only/,
    ],
    [
      'a name with "__"',
      { mcpServers: { a__b: { command: 'x' } } },
      /server "a__b": a server name may use only/,
    ],
  ])('%s is an error naming the file, the server and the field', (_name, json, message) => {
    expect(() => parseMcpConfig(json, FILE)).toThrow(message);
  });

  it('text that is not JSON is an error naming the file', () => {
    expect(() => parseMcpConfigText('{ nope', FILE)).toThrow(/\/repo\/\.mcp\.json: not valid JSON/);
  });
});
