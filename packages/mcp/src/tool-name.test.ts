import { describe, expect, it } from 'vitest';
import { assignToolNames, MAX_TOOL_NAME, mcpServerPrefix, mcpToolName } from './tool-name.js';

describe('MCP tool names', () => {
  it.each([
    ['everything', 'echo', 'mcp__everything__echo'],
    ['my.server', 'get file', 'mcp__my_server__get_file'],
    ['s', 'a/b:c@d', 'mcp__s__a_b_c_d'],
    ['s', 'kebab-case_ok', 'mcp__s__kebab-case_ok'],
  ])('server %s, tool %s is %s', (server, tool, name) => {
    expect(mcpToolName(server, tool)).toBe(name);
  });

  it('a name over the limit is shortened with a hash, and two long names stay apart', () => {
    const a = mcpToolName('server', `${'x'.repeat(80)}a`);
    const b = mcpToolName('server', `${'x'.repeat(80)}b`);
    expect(a).toHaveLength(MAX_TOOL_NAME);
    expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  it('every tool of a server starts with its prefix', () => {
    expect(mcpToolName('my.server', 'x').startsWith(mcpServerPrefix('my.server'))).toBe(true);
  });

  it('two tools that end up with one name are an error naming both', () => {
    expect(() =>
      assignToolNames([
        { server: 's', tool: 'get file' },
        { server: 's', tool: 'get.file' },
      ]),
    ).toThrow(/"get file" of server "s" and "get.file" of server "s"/);
  });
});
