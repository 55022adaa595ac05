import { defineTool, ToolRegistry } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allowedToolNames, createPolicyMiddleware } from './policy-middleware.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: name,
    parallelSafe: true,
    parameters: z.object({}),
    run: async () => ({ content: `${name} ran`, isError: false }),
  });

function execute(registry: ToolRegistry, name: string) {
  return registry.execute({
    call: { id: '1', name, arguments: {} },
    workdir: '/tmp',
    signal: new AbortController().signal,
    visibleTools: registry.names(),
    metadata: {},
  });
}

describe('runtime tool policy', () => {
  it('lets the denylist win over the allowlist', async () => {
    const lists = { allowlist: ['read', 'bash'], denylist: ['bash'] };
    const registry = new ToolRegistry().register(tool('bash')).use(createPolicyMiddleware(lists));
    const result = await execute(registry, 'bash');
    expect(result).toMatchObject({
      status: 'denied',
      reason: 'denylist',
      output: {
        isError: true,
        failure: { kind: 'denied' },
        metadata: { error_type: 'tool_policy_denied', tool_policy: 'denylist' },
      },
    });
    expect(allowedToolNames(['bash', 'read'], lists)).toEqual(['read']);
  });

  it('treats an empty allowlist as allowing every tool', async () => {
    const registry = new ToolRegistry()
      .register(tool('read'))
      .use(createPolicyMiddleware({ allowlist: [], denylist: [] }));
    expect(await execute(registry, 'read')).toMatchObject({
      status: 'completed',
      output: { content: 'read ran' },
    });
  });

  it('denies a tool missing from a non-empty allowlist, naming the policy that fired', async () => {
    const lists = { allowlist: ['read'], denylist: [] };
    const registry = new ToolRegistry().register(tool('write')).use(createPolicyMiddleware(lists));
    const result = await execute(registry, 'write');
    expect(result.output.content).toContain('not in TINY_CLAW_TOOL_ALLOWLIST');
    expect(result.output.metadata?.tool_policy).toBe('allowlist');
    expect(allowedToolNames(['read', 'write'], lists)).toEqual(['read']);
  });
});
