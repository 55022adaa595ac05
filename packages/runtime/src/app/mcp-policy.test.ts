import { defineTool, type Tool } from '@tiny-claw/core';
import { mcpToolName } from '@tiny-claw/mcp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSettings } from '../settings/load-settings.js';
import { isMcpToolName, policyEntryCovers } from './mcp-names.js';
import { runtimePolicy } from './runtime-policy.js';
import { createRuntimePolicy } from './runtime-rules.js';

const tool = (name: string): Tool =>
  defineTool({ name, description: name, parameters: z.object({}), run: () => 'ok' }) as Tool;
const TOOLS = ['read', 'mcp__everything__echo', 'mcp__everything__add', 'mcp__files__read'].map(
  tool,
);

const settingsWith = (env: Record<string, string>) =>
  loadSettings({
    env: { TINY_CLAW_WORKDIR: '/tmp', TINY_CLAW_STATE_DIR: '/tmp/.no-state', ...env },
    cwd: '/tmp',
    homeDir: '/tmp/.no-home',
  });

describe('allow and deny lists name MCP tools one by one or by server', () => {
  it.each([
    [
      'deny one server’s tools',
      { TINY_CLAW_TOOL_DENYLIST: 'mcp__everything__*' },
      { deny: ['mcp__everything__echo', 'mcp__everything__add'] },
    ],
    [
      'deny one tool',
      { TINY_CLAW_TOOL_DENYLIST: 'mcp__files__read' },
      { deny: ['mcp__files__read'] },
    ],
    [
      'allow read and one server',
      { TINY_CLAW_TOOL_ALLOWLIST: 'read,mcp__files__*' },
      { allow: ['read', 'mcp__files__read'] },
    ],
    [
      'a server that is not configured changes nothing',
      { TINY_CLAW_TOOL_DENYLIST: 'mcp__nope__*' },
      {},
    ],
  ])('%s', (_name, env, policy) => {
    expect(runtimePolicy(settingsWith(env), TOOLS)).toEqual(policy);
  });

  it.each([
    ['mcp__bad', /an MCP entry is mcp__<server>__<tool> or mcp__<server>__\*/],
    ['mcp__s__a.b', /an MCP entry is/],
    ['mcp__s__*, rread', /unknown tool "rread".*or MCP tools/],
  ])('TINY_CLAW_TOOL_DENYLIST=%s is refused, saying what is accepted', (value, message) => {
    expect(() => settingsWith({ TINY_CLAW_TOOL_DENYLIST: value })).toThrow(message);
  });

  it('TINY_CLAW_ENABLED_TOOLS still names built-in tools only', () => {
    expect(() => settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'mcp__everything__echo' })).toThrow(
      /unknown tool/,
    );
  });

  it('a server pattern covers its own tools only, even with a server named like a prefix', () => {
    expect(policyEntryCovers('mcp__a__*', 'mcp__a__x')).toBe(true);
    expect(policyEntryCovers('mcp__a__*', 'mcp__ab__x')).toBe(false);
    expect(policyEntryCovers('mcp__a__x', 'mcp__a__xy')).toBe(false);
  });

  it('names the MCP client gives are the names recognised here', () => {
    expect(isMcpToolName(mcpToolName('a.b', 'c d'))).toBe(true);
  });
});

describe('MCP tools need approval by default', () => {
  it.each([
    ['mcp__everything__echo', 'approval_required'],
    ['read', 'allow'],
  ])('%s is judged %s', async (name, verdict) => {
    const policy = createRuntimePolicy(settingsWith({ TINY_CLAW_SANDBOX: 'off' }));
    expect((await policy.judge({ name, arguments: { message: 'x' } }, '/tmp')).verdict).toBe(
      verdict,
    );
  });
});
