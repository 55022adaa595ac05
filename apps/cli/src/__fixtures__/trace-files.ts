import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sessionKey } from '@tiny-claw/core/utils';
import type { TraceSpan, TraceTree } from '@tiny-claw/tracing';

/** What a hostile tool output could leave in a replay trace. */
export const XSS_PAYLOAD = '</script><script>window.__pwned = 1</script>';

/** The key `tiny-claw run --session NAME` uses in `workdir` (which must be a real path). */
export function cliKey(workdir: string, name = 'default'): string {
  return sessionKey('cli', workdir, name);
}

function span(
  id: string,
  kind: string,
  name: string,
  start: number,
  end: number,
  more: Partial<TraceSpan> = {},
): TraceSpan {
  return {
    span_id: id.padStart(16, '0'),
    parent_id: null,
    kind,
    name,
    started_at: new Date(start).toISOString(),
    ended_at: new Date(end).toISOString(),
    status: 'ok',
    attributes: {},
    events: [],
    children: [],
    ...more,
  };
}

/**
 * A valid schema-v1 trace of a two-step run (a model call and two tools, one failing with
 * {@link XSS_PAYLOAD} in its output; then the final answer) that started at `startedAt`.
 */
export function traceFixture(traceId: string, key: string, startedAt: string): TraceTree {
  const t = Date.parse(startedAt);
  return {
    schema_version: 1,
    trace_id: traceId,
    session: { key, source: 'cli' },
    capture_mode: 'replay',
    root: span('1', 'agent.run', 'main', t, t + 1500, {
      attributes: { mode: 'act', steps: 2, stop_reason: 'final' },
      children: [
        span('2', 'agent.step', 'step.1', t + 10, t + 900, {
          parent_id: '0000000000000001',
          children: [
            span('3', 'llm.call', 'llm.scripted', t + 20, t + 400, {
              parent_id: '0000000000000002',
              attributes: { model: 'scripted', input_tokens: 120, output_tokens: 11 },
            }),
            span('4', 'tool.call', 'tool.read', t + 410, t + 450, {
              parent_id: '0000000000000002',
              attributes: { tool_name: 'read', tool_call_index: 0, output: XSS_PAYLOAD },
            }),
            span('5', 'tool.call', 'tool.write', t + 410, t + 890, {
              parent_id: '0000000000000002',
              status: 'error',
              attributes: {
                tool_name: 'write',
                tool_call_index: 1,
                is_error: true,
                error_type: 'ToolError',
                error_message: 'path escapes the workdir',
              },
            }),
          ],
        }),
        span('6', 'agent.step', 'step.2', t + 910, t + 1490, {
          parent_id: '0000000000000001',
          children: [
            span('7', 'llm.call', 'llm.scripted', t + 920, t + 1480, {
              parent_id: '0000000000000006',
              attributes: { model: 'scripted', input_tokens: 200, output_tokens: 30 },
            }),
          ],
        }),
      ],
    }),
  };
}

/** Write `tree` where the file recorder would: `<stateDir>/sessions/<key>/traces/<id>.json`. */
export async function writeTraceFile(stateDir: string, tree: TraceTree): Promise<string> {
  const dir = join(stateDir, 'sessions', tree.session.key, 'traces');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${tree.trace_id}.json`);
  await writeFile(path, `${JSON.stringify(tree, null, 2)}\n`);
  return path;
}
