import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The built CLI with a scripted model that gives two calls of one turn the same id, as some
// models and proxies do: the trace keeps one span per call, each with its own result.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
  outside = await createTempWorkspace({}, 'tiny-claw-state-');
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

interface Span {
  kind: string;
  status: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

const toolSpans = (span: Span): Span[] => [
  ...(span.kind === 'tool.call' ? [span] : []),
  ...span.children.flatMap(toolSpans),
];

describe('two tool calls with the same id', () => {
  it.each(['replay', 'metadata'])(
    'each keep their own span and result in a %s trace, and trace show lists both',
    async (traceMode) => {
      const script = await writeScript(outside.dir, {
        turns: [
          {
            tool_calls: [
              { id: 'call_dup', name: 'read', arguments: { path: 'a.txt' } },
              { id: 'call_dup', name: 'read', arguments: { path: 'missing.txt' } },
            ],
          },
          { text: 'done' },
        ],
      });
      const env = {
        TINY_CLAW_STATE_DIR: outside.path('state'),
        TINY_CLAW_WORKDIR: ws.dir,
        TINY_CLAW_PROVIDER: 'scripted',
        TINY_CLAW_SCRIPT: script,
        TINY_CLAW_TRACE_MODE: traceMode,
      };
      const cli = (args: string[]) => runCli({ bin, args, env, cwd: ws.dir, timeoutMs: 60_000 });
      const run = await cli(['run', 'read both']);
      expect(run.code, run.stderr).toBe(0);

      const shown = await cli(['trace', 'show', 'last']);
      expect(shown.code, shown.stderr).toBe(0);
      const toolLines = shown.stdout.split('\n').filter((line) => line.includes('tool.call read'));
      expect(toolLines).toHaveLength(2);
      expect(toolLines[0]).toMatch(/tool\.call read {2}ok /);
      expect(toolLines[1]).toMatch(/tool\.call read {2}error /);
      expect(shown.stdout).toMatch(/2 tool calls · 1 error/);

      const json = await cli(['trace', 'show', 'last', '--json']);
      const spans = toolSpans(JSON.parse(json.stdout).root as Span);
      expect(
        spans.map((span) => [span.attributes.tool_call_id, span.attributes.tool_call_index]),
      ).toEqual([
        ['call_dup', 0],
        ['call_dup', 1],
      ]);
      expect(spans.map((span) => span.attributes.is_error)).toEqual([false, true]);
      if (traceMode === 'replay') {
        expect(spans[0]?.attributes.tool_arguments).toEqual({ path: 'a.txt' });
        expect(spans[0]?.attributes.tool_observation).toContain('alpha');
        expect(spans[1]?.attributes.tool_arguments).toEqual({ path: 'missing.txt' });
        expect(spans[1]?.attributes.tool_observation).toContain('missing.txt');
      }
    },
  );
});
