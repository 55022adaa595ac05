import { TinyClawError } from './errors.js';
import type { ToolDefinition } from './messages.js';
import {
  type AvailableTool,
  type FailureKind,
  type Tool,
  ToolArgumentsError,
  type ToolCarry,
  type ToolExecutionContext,
  type ToolExecutionResult,
  type ToolMiddleware,
  toolDefinition,
} from './tool.js';

/**
 * Holds the registered tools and the middleware chain every call passes through.
 *
 * @example
 * const registry = new ToolRegistry().register(myTool);
 * registry.use(async (ctx, next) => next(ctx));
 */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  readonly #middlewares: ToolMiddleware[] = [];

  register(tool: Tool): this {
    if (this.#tools.has(tool.name)) {
      throw new TinyClawError(`tool already registered: ${tool.name}`);
    }
    // The registry stores tools of heterogeneous argument types behind one signature.
    this.#tools.set(tool.name, tool as Tool);
    return this;
  }

  /** Add a middleware; the first one added runs outermost. */
  use(middleware: ToolMiddleware): this {
    this.#middlewares.push(middleware);
    return this;
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.#tools.keys()].sort();
  }

  /**
   * A registry with the same middleware chain and tools plus `extra` (a name already registered
   * keeps its tool): for a child run that may use tools its caller is not shown.
   */
  derive(extra: readonly Tool[]): ToolRegistry {
    const derived = new ToolRegistry();
    for (const middleware of this.#middlewares) derived.use(middleware);
    for (const tool of this.#tools.values()) derived.register(tool);
    for (const tool of extra) if (!derived.#tools.has(tool.name)) derived.register(tool);
    return derived;
  }

  /**
   * The registered tools among `names`, with whether each only looks (see `Tool.readOnly`), in
   * the order given.
   */
  available(names: readonly string[]): AvailableTool[] {
    return names.flatMap((name) => {
      const tool = this.#tools.get(name);
      return tool ? [{ name, readOnly: tool.readOnly === true }] : [];
    });
  }

  /** Definitions sorted by name, optionally limited to `only`. */
  definitions(only?: readonly string[]): ToolDefinition[] {
    const allowed = only ? new Set(only) : undefined;
    return this.names()
      .filter((name) => !allowed || allowed.has(name))
      .map((name) => toolDefinition(this.#tools.get(name) as Tool));
  }

  /**
   * The tools' per-run state of run `runId`, by carry key, to keep across a pause (tools that
   * share a key are asked once). A tool whose `save` throws is left out: its state is then simply
   * not carried.
   */
  saveCarry(runId: string): Record<string, unknown> {
    const saved: Record<string, unknown> = {};
    for (const carry of this.#carries()) {
      try {
        const data = carry.save(runId);
        if (data !== undefined) saved[carry.key] = data;
      } catch {
        // Best effort: a resumed call without it is refused by the tool, never run unchecked.
      }
    }
    return saved;
  }

  /** Hand state saved by {@link saveCarry} back to the tools, under run `runId`. */
  restoreCarry(runId: string, saved: Readonly<Record<string, unknown>>): void {
    for (const carry of this.#carries()) {
      if (!Object.hasOwn(saved, carry.key)) continue;
      try {
        carry.restore(runId, saved[carry.key]);
      } catch {
        // Malformed saved state is ignored; the tool then acts as if nothing was carried.
      }
    }
  }

  #carries(): ToolCarry[] {
    const byKey = new Map<string, ToolCarry>();
    for (const tool of this.#tools.values()) {
      if (tool.carry && !byKey.has(tool.carry.key)) byKey.set(tool.carry.key, tool.carry);
    }
    return [...byKey.values()];
  }

  /** Run one call through the middleware chain and the tool. Never throws for model mistakes. */
  execute(ctx: ToolExecutionContext): Promise<ToolExecutionResult> {
    const chain = this.#middlewares.reduceRight<
      (c: ToolExecutionContext) => Promise<ToolExecutionResult>
    >(
      (next, middleware) => (c) => middleware(c, next),
      (c) => this.#runTool(c),
    );
    return chain(ctx);
  }

  async #runTool(ctx: ToolExecutionContext): Promise<ToolExecutionResult> {
    const { call } = ctx;
    const tool = this.#tools.get(call.name);
    if (!tool || !ctx.visibleTools.includes(call.name)) {
      const visible = ctx.visibleTools.length > 0 ? ctx.visibleTools.join(', ') : 'none';
      return failed(
        `unknown tool: ${JSON.stringify(call.name)}; available tools: ${visible}`,
        'unknown_tool',
      );
    }
    if (call.argumentsError !== undefined) {
      return failed(`failed to parse tool arguments: ${call.argumentsError}`, 'invalid_arguments');
    }
    let args: unknown;
    try {
      args = tool.parse(call.arguments);
    } catch (error) {
      if (error instanceof ToolArgumentsError) {
        return failed(`failed to parse tool arguments: ${error.message}`, 'invalid_arguments');
      }
      throw error;
    }
    const output = await tool.run(args, {
      workdir: ctx.workdir,
      signal: ctx.signal,
      toolCallId: call.id,
      visibleTools: ctx.visibleTools,
      ...(ctx.session ? { session: ctx.session } : {}),
      ...(ctx.runId ? { runId: ctx.runId } : {}),
      ...(ctx.subagents ? { subagents: ctx.subagents } : {}),
    });
    return { status: 'completed', output };
  }
}

function failed(content: string, kind: FailureKind): ToolExecutionResult {
  return {
    status: 'completed',
    output: { content, isError: true, failure: { kind } },
  };
}
