import { mkdir, writeFile } from 'node:fs/promises';
import type { LLMProvider, RunEvent } from '@tiny-claw/core';
import { ScriptedProvider } from '@tiny-claw/core/testing';
import { type Application, createApplication, loadSettings } from '@tiny-claw/runtime';
import { createTempWorkspace, POLICY_CASES, type TempWorkspace } from '@tiny-claw/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from './main.js';
import type { Output } from './output.js';

// `tiny-claw policy check` judges a call without running it; this proves it says what `run` then
// does, on every row of the policy's shared table: `allow` runs the command, `approval_required`
// pauses the run, `deny` refuses the call and the run goes on. Both read the same settings: the
// state dir inside the workdir (so it is a protected path there), the sandbox off, no kept rules.

let ws: TempWorkspace;
let home: TempWorkspace;
let env: Record<string, string>;
let app: Application;
// Each row gets a fresh script; the application keeps this one provider, which hands over.
let script = new ScriptedProvider({ turns: [] });
const provider: LLMProvider = {
  name: 'scripted',
  model: 'scripted',
  complete: (request, options) => script.complete(request, options),
};
const saved = { ...process.env };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  ws = await createTempWorkspace({ 'README.md': '# demo\n', 'a.txt': 'alpha\n' });
  // Home lies outside the workdir, as it does for a user.
  home = await createTempWorkspace({}, 'tiny-claw-home-');
  await mkdir(ws.path('src'), { recursive: true });
  await writeFile(ws.path('src/index.ts'), 'export {};\n');
  env = {
    HOME: home.dir,
    XDG_CONFIG_HOME: home.path('.config'),
    TINY_CLAW_STATE_DIR: ws.path('.tiny-claw'),
    TINY_CLAW_WORKDIR: ws.dir,
    TINY_CLAW_SANDBOX: 'off',
    TINY_CLAW_ENABLED_TOOLS: 'bash',
    TINY_CLAW_PROVIDER: 'echo',
  };
  for (const key of Object.keys(process.env))
    if (key.startsWith('TINY_CLAW_')) delete process.env[key];
  Object.assign(process.env, env);
  app = await createApplication(loadSettings({ env, cwd: ws.dir, homeDir: env.HOME as string }), {
    provider,
    logger: silent,
  });
});

afterAll(async () => {
  await app?.close();
  process.env = saved;
  await ws?.cleanup();
  await home?.cleanup();
});

/** What `tiny-claw policy check --json` prints for a command. */
async function policyCheck(command: string): Promise<string> {
  let stdout = '';
  const out: Output = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    color: false,
    interactive: false,
  };
  const code = await main(['policy', 'check', '--json', '--workdir', ws.dir, '--', command], out);
  expect(code, stdout).toBe(0);
  return (JSON.parse(stdout) as { verdict: string }).verdict;
}

/** What a run does when the model calls bash with the command, as a verdict. */
async function runVerdict(command: string): Promise<string> {
  script = new ScriptedProvider({
    turns: [{ tool_calls: [{ name: 'bash', arguments: { command } }] }, { text: 'done' }],
  });
  const ends: RunEvent[] = [];
  const result = await app.run({
    prompt: 'go',
    session: `row-${Math.random().toString(36).slice(2)}`,
    onEvent: (event) => {
      if (event.type === 'tool.end') ends.push(event);
    },
  });
  if (result.stopReason === 'approval_required') return 'approval_required';
  expect(result.stopReason).toBe('final');
  const end = ends[0];
  if (end?.type !== 'tool.end') throw new Error(`no tool call ended for ${command}`);
  if (end.status === 'denied' && end.output.failure?.code === 'risk_policy_denied') return 'deny';
  expect(end.status).toBe('completed');
  return 'allow';
}

describe('policy check says what run does, on every row of the shared policy table', () => {
  it.each(POLICY_CASES.map((row) => [row.family, row.command, row.verdict] as const))(
    '%s: `%s` is %s in both',
    async (_family, command, verdict) => {
      const checked = await policyCheck(command);
      const ran = await runVerdict(command);
      expect({ checked, ran }).toEqual({ checked: verdict, ran: verdict });
    },
  );
});
