import { readFile } from 'node:fs/promises';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { createTempWorkspace, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings } from '../settings/load-settings.js';
import { createApplication } from './create-application.js';

// The trace JSON is a public format: the attributes of a `tool.call` span say how the call ended
// (error, refusal, pause, blocked repeat) in words consumers filter on. Whoever describes the
// failure — a tool, the policy, the approval gate, the executor — the words stay these.

let ws: TempWorkspace;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeEach(async () => {
  ws = await createTempWorkspace({ 'a.txt': 'alpha\n' });
});
afterEach(() => ws.cleanup());

const settingsWith = (env: Record<string, string>) =>
  loadSettings({
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir, ...env },
    cwd: ws.dir,
    homeDir: ws.dir,
  });

interface Span {
  kind: string;
  status: string;
  attributes: Record<string, unknown>;
  children: Span[];
}

/** The keys a finished tool call sets, as a trace file holds them. */
const RESULT_KEYS = [
  'tool_name',
  'is_error',
  'denied',
  'suspended',
  'blocked',
  'doom_loop_detected',
  'error_type',
  'retryable',
  'suggested_tool',
  'attempt',
] as const;

async function toolSpans(tracePath: string | undefined): Promise<Record<string, unknown>[]> {
  const tree = JSON.parse(await readFile(tracePath as string, 'utf8')) as { root: Span };
  const spans: Span[] = [];
  const walk = (span: Span) => {
    if (span.kind === 'tool.call') spans.push(span);
    span.children.forEach(walk);
  };
  walk(tree.root);
  for (const span of spans) {
    // Byte for byte: the keys also keep their order in the file.
    const written = Object.keys(span.attributes).filter((key) =>
      (RESULT_KEYS as readonly string[]).includes(key),
    );
    expect(written).toEqual(RESULT_KEYS.filter((key) => key in span.attributes));
  }
  return spans.map((span) => ({
    status: span.status,
    ...Object.fromEntries(
      RESULT_KEYS.filter((key) => key in span.attributes).map((key) => [key, span.attributes[key]]),
    ),
  }));
}

const editUnread = { name: 'edit', arguments: { path: 'a.txt', old_text: 'x', new_text: 'y' } };

describe('the trace attributes of a tool result', () => {
  it('name each way a call ends as trace files always have', async () => {
    const app = await createApplication(
      settingsWith({
        TINY_CLAW_ENABLED_TOOLS: 'read,write,edit,bash',
        TINY_CLAW_TOOL_DENYLIST: 'bash',
      }),
      {
        provider: new ScriptedProvider({
          turns: [
            { tool_calls: [editUnread] },
            { tool_calls: [editUnread] },
            { tool_calls: [editUnread] },
            { tool_calls: [{ name: 'bash', arguments: { command: 'ls' } }] },
            { tool_calls: [{ name: 'write', arguments: { path: '.git/config', content: 'x' } }] },
            { tool_calls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
            { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }] },
          ],
        }),
        logger: silent,
      },
    );
    const paused = await app.run({ prompt: 'go' });
    expect(paused.stopReason).toBe('approval_required');
    const failed = { status: 'error', tool_name: 'edit', is_error: true, denied: false };
    const calm = { suspended: false, doom_loop_detected: false };
    expect(await toolSpans(paused.tracePath)).toEqual([
      {
        ...failed,
        ...calm,
        error_type: 'stale_read',
        retryable: true,
        suggested_tool: 'read',
        attempt: 1,
      },
      {
        ...failed,
        ...calm,
        error_type: 'stale_read',
        retryable: true,
        suggested_tool: 'read',
        attempt: 2,
      },
      {
        ...failed,
        suspended: false,
        blocked: true,
        doom_loop_detected: true,
        error_type: 'repeat_call_blocked',
        retryable: false,
        attempt: 3,
      },
      {
        status: 'error',
        tool_name: 'bash',
        is_error: true,
        denied: true,
        ...calm,
        error_type: 'denied',
      },
      {
        status: 'error',
        tool_name: 'write',
        is_error: true,
        denied: true,
        ...calm,
        error_type: 'risk_policy_denied',
      },
      { status: 'ok', tool_name: 'read', is_error: false, denied: false, ...calm },
      {
        status: 'ok',
        tool_name: 'write',
        is_error: true,
        denied: false,
        suspended: true,
        doom_loop_detected: false,
        error_type: 'approval_required',
      },
    ]);

    const rejecting = await createApplication(
      settingsWith({ TINY_CLAW_ENABLED_TOOLS: 'read,write,edit', TINY_CLAW_TOOL_DENYLIST: 'bash' }),
      { provider: new ScriptedProvider({ turns: [{ text: 'left it' }] }), logger: silent },
    );
    const resumed = await rejecting.resumeApproval(paused.approvalId as string, {
      decision: 'reject',
      actor: 'cli:alice',
      reason: 'not now',
    });
    expect(resumed.stopReason).toBe('final');
    expect(await toolSpans(resumed.tracePath)).toEqual([
      { status: 'error', tool_name: 'write', is_error: true, denied: true, ...calm },
    ]);
  });
});
