import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ToolExecutionContext, type ToolMiddleware } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

const echoTool = defineTool({
  name: 'say',
  description: 'says the word',
  parallelSafe: true,
  parameters: z.object({ word: z.string() }),
  run: async ({ word }) => ({ content: `said ${word}`, isError: false }),
});

function ctx(
  name: string,
  args: Record<string, unknown>,
  extra: Partial<ToolExecutionContext> = {},
) {
  return {
    call: { id: 'c1', name, arguments: args },
    workdir: '/tmp',
    signal: new AbortController().signal,
    visibleTools: ['say'],
    metadata: {},
    ...extra,
  } satisfies ToolExecutionContext;
}

describe('ToolRegistry', () => {
  it('runs middlewares in registration order, first registered outermost', async () => {
    const order: string[] = [];
    const mark =
      (label: string): ToolMiddleware =>
      async (c, next) => {
        order.push(`${label}:in`);
        const result = await next(c);
        order.push(`${label}:out`);
        return result;
      };
    const registry = new ToolRegistry().register(echoTool).use(mark('a')).use(mark('b'));
    const result = await registry.execute(ctx('say', { word: 'hi' }));
    expect(result).toEqual({ status: 'completed', output: { content: 'said hi', isError: false } });
    expect(order).toEqual(['a:in', 'b:in', 'b:out', 'a:out']);
  });

  it('lets a middleware short-circuit with a denial so the tool never runs', async () => {
    let ran = false;
    const registry = new ToolRegistry()
      .register(
        defineTool({
          name: 'say',
          description: '',
          parallelSafe: false,
          parameters: z.object({}),
          run: async () => {
            ran = true;
            return { content: '', isError: false };
          },
        }),
      )
      .use(async () => ({
        status: 'denied',
        reason: 'denylist',
        output: { content: 'denied by policy', isError: true },
      }));
    const result = await registry.execute(ctx('say', {}));
    expect(result.status).toBe('denied');
    expect(ran).toBe(false);
  });

  it('passes a suspended result through unchanged', async () => {
    const registry = new ToolRegistry().register(echoTool).use(async () => ({
      status: 'suspended',
      approvalId: 'a1',
      checkpointId: 'k1',
      output: { content: 'needs approval', isError: true },
    }));
    expect(await registry.execute(ctx('say', { word: 'x' }))).toMatchObject({
      status: 'suspended',
      approvalId: 'a1',
    });
  });

  it('answers an unknown tool with an error naming the available tools', async () => {
    const registry = new ToolRegistry().register(echoTool);
    const result = await registry.execute(ctx('Say', {}));
    expect(result.output.isError).toBe(true);
    expect(result.output.content).toContain('unknown tool: "Say"');
    expect(result.output.content).toContain('available tools: say');
  });

  it('treats a registered tool hidden from the model as unknown', async () => {
    const registry = new ToolRegistry().register(echoTool);
    const result = await registry.execute(ctx('say', { word: 'x' }, { visibleTools: [] }));
    expect(result.output).toMatchObject({ isError: true, failure: { kind: 'unknown_tool' } });
    expect(result.output).not.toHaveProperty('metadata');
  });

  it('answers arguments that do not fit the schema with a parse error the model can act on', async () => {
    const registry = new ToolRegistry().register(echoTool);
    const result = await registry.execute(ctx('say', { word: 42 }));
    expect(result.output.isError).toBe(true);
    expect(result.output.content).toMatch(/^failed to parse tool arguments: word: /);
  });

  it('answers undecodable arguments reported by the provider without running the tool', async () => {
    const registry = new ToolRegistry().register(echoTool);
    const c = ctx('say', {});
    const result = await registry.execute({
      ...c,
      call: { ...c.call, argumentsError: 'invalid JSON' },
    });
    expect(result.output.content).toBe('failed to parse tool arguments: invalid JSON');
  });

  it('refuses to register two tools with the same name', () => {
    const registry = new ToolRegistry().register(echoTool);
    expect(() => registry.register(echoTool)).toThrow('tool already registered: say');
  });

  it('lists names and definitions sorted and derives the JSON schema from zod', () => {
    const other = defineTool({
      name: 'alpha',
      description: 'first',
      parallelSafe: true,
      parameters: z.object({ n: z.number().int().default(1) }),
      run: async () => ({ content: '', isError: false }),
    });
    const registry = new ToolRegistry().register(echoTool).register(other);
    expect(registry.names()).toEqual(['alpha', 'say']);
    const defs = registry.definitions(['say']);
    expect(defs).toEqual([
      {
        name: 'say',
        description: 'says the word',
        parameters: expect.objectContaining({
          type: 'object',
          properties: { word: { type: 'string' } },
          required: ['word'],
        }),
      },
    ]);
  });
});
