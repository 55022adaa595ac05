import { z } from 'zod';
import type { RunMemory, RunMemoryFactory } from '../loop/memory-port.js';
import type { SessionRef } from '../session/session-ref.js';
import { defineTool, type Tool } from '../tool.js';

/**
 * Memory kept in a Map, per session key: for tests and embedding without a state dir.
 *
 * @example
 * const memory = new InMemoryMemory();
 */
export class InMemoryMemory implements RunMemoryFactory {
  readonly lines = new Map<string, Array<{ key: string; value: string }>>();

  forSession(session: Pick<SessionRef, 'key'>): RunMemory {
    const list = this.lines.get(session.key) ?? [];
    this.lines.set(session.key, list);
    return {
      append: async (entries) => {
        list.push(...entries);
      },
      readRecent: async (limit = 5) =>
        list.slice(-limit).map((entry) => `${entry.key}: ${entry.value}`),
    };
  }
}

/**
 * A session bound to `workdir`, for tests.
 *
 * @example
 * const session = testSession('/tmp/w');
 */
export function testSession(workdir = '/tmp/tiny-claw-test', name = 'default'): SessionRef {
  return {
    key: `cli-000000000000-${name}`,
    source: 'cli',
    externalId: name,
    displayName: name,
    workdir,
  };
}

/**
 * A tool that answers after `delayMs` and records when each call ran, to observe concurrency.
 *
 * @example
 * const slow = slowTool('slow_read', { delayMs: 50, parallelSafe: true });
 */
export function slowTool(
  name: string,
  options: { delayMs: number; parallelSafe: boolean },
): Tool<{ label?: string | undefined }> & {
  spans: Array<{ label: string; start: number; end: number }>;
} {
  const spans: Array<{ label: string; start: number; end: number }> = [];
  const tool = defineTool({
    name,
    description: `test tool ${name}`,
    parallelSafe: options.parallelSafe,
    parameters: z.object({ label: z.string().optional() }),
    run: async ({ label }) => {
      const start = performance.now();
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      spans.push({ label: label ?? '', start, end: performance.now() });
      return { content: `${name}:${label ?? ''}`, isError: false };
    },
  });
  return Object.assign(tool, { spans });
}
