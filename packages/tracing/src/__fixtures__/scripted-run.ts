import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAgent,
  createMemoryStore,
  defineTool,
  type Logger,
  type RunResult,
  type Tracer,
} from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { z } from 'zod';

/** The prompt and answer of the scripted run; tests grep trace files for them. */
export const PROMPT = 'PROMPT-MARKER summarise alpha and beta';
export const ANSWER = 'ANSWER-MARKER both files summarised';
export const ALPHA_PATH = 'ARG-MARKER-alpha.txt';
export const BETA_PATH = 'ARG-MARKER-beta.txt';
export const WRITE_CONTENT = 'WRITE-CONTENT-MARKER summary';

/**
 * Two parallel reads (the first one waits for the second, so they finish out of order), a write,
 * then a final answer, through a real agent with the tracer attached. The run's workdir is the
 * state dir unless another is given.
 */
export async function scriptedRun(
  tracer: Tracer,
  options: { stateDir: string; workdir?: string; files?: Record<string, string>; logger?: Logger },
): Promise<RunResult> {
  const files = options.files ?? {
    [ALPHA_PATH]: 'alpha says hello',
    [BETA_PATH]: 'beta says hi',
  };
  let betaDone: () => void = () => {};
  const betaFinished = new Promise<void>((resolve) => {
    betaDone = resolve;
  });
  const read = defineTool({
    name: 'read',
    description: 'read a file',
    parallelSafe: true,
    parameters: z.object({ path: z.string() }),
    run: async ({ path }) => {
      // The first call waits for the second, so completion order is the reverse of the model's.
      if (path === ALPHA_PATH) await betaFinished;
      else betaDone();
      return files[path] ?? 'missing';
    },
  });
  const write = defineTool({
    name: 'write',
    description: 'write a file',
    parameters: z.object({ path: z.string(), content: z.string() }),
    run: ({ path }) => `wrote ${path}`,
  });
  const provider = new ScriptedProvider({
    turns: [
      {
        tool_calls: [
          { name: 'read', arguments: { path: ALPHA_PATH } },
          { name: 'read', arguments: { path: BETA_PATH } },
        ],
        usage: { input_tokens: 100, output_tokens: 10 },
      },
      {
        tool_calls: [{ name: 'write', arguments: { path: 'summary.md', content: WRITE_CONTENT } }],
        usage: { input_tokens: 150, output_tokens: 20 },
      },
      { text: ANSWER, usage: { input_tokens: 200, output_tokens: 30 } },
    ],
  });
  const agent = createAgent({
    provider,
    tools: [read, write],
    store: createMemoryStore(),
    tracer,
    workdir: options.workdir ?? options.stateDir,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // The default session: traces are kept under a session's directory.
  return agent.run(PROMPT, { session: 'default' });
}

/** A fresh state directory; `cleanup` removes it. */
export async function tempStateDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tc-trace-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Every file under `dir` with its text, for "grep the whole state dir" assertions. */
export async function readAllFiles(dir: string): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, text: await readFile(path, 'utf8') });
  }
  return out;
}

/** A logger that keeps warnings. */
export function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    debug() {},
    info() {},
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };
}
