import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// These tests drive the built binary exactly as a user does (the turbo test task builds first).
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
let env: Record<string, string>;

beforeEach(async () => {
  ws = await createTempWorkspace({ 'notes/a.txt': 'alpha\nbeta\n' });
  env = { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir };
});
afterEach(() => ws.cleanup());

const cli = (args: string[], extra: Record<string, string> = {}, stdin?: string) =>
  runCli({
    bin,
    args,
    env: { ...env, ...extra },
    cwd: ws.dir,
    ...(stdin === undefined ? {} : { stdin }),
  });

const threeTurns = {
  turns: [
    { text: 'reading', tool_calls: [{ name: 'read', arguments: { path: 'notes/a.txt' } }] },
    { tool_calls: [{ name: 'read', arguments: { path: 'notes/a.txt', offset: 2 } }] },
    { text: 'the file says alpha and beta' },
  ],
};

async function memoryLines(): Promise<Array<{ key: string; value: string; sessionKey: string }>> {
  const sessionsDir = ws.path('.state/sessions');
  const lines: Array<{ key: string; value: string; sessionKey: string }> = [];
  for (const key of await readdir(sessionsDir)) {
    const text = await readFile(join(sessionsDir, key, 'memory.jsonl'), 'utf8').catch(() => '');
    for (const line of text.split('\n').filter(Boolean))
      lines.push({ ...JSON.parse(line), sessionKey: key });
  }
  return lines;
}

describe('tiny-claw run', () => {
  it('answers "hello" with the echo provider and exit 0 when no key is configured', async () => {
    const result = await cli(['run', 'hello']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('hello\n');
    expect(result.stderr).toContain(
      'provider echo (auto: no OPENAI_API_KEY or ANTHROPIC_API_KEY configured',
    );
  });

  it('reports final after 3 steps for a three-turn script, with --json', async () => {
    const script = await writeScript(ws.dir, threeTurns);
    const result = await cli(['run', 'summarise', '--json'], {
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      stopReason: 'final',
      steps: 3,
      maxSteps: 20,
      text: 'the file says alpha and beta',
      mode: 'act',
      provider: 'scripted',
      workdir: ws.dir,
    });
    expect(result.stderr).toContain('→ read {"path":"notes/a.txt"}');
    expect(result.stderr).toContain('← read ok');
  });

  it('exits 3 with max_steps_exhausted when --max-steps is reached without a final answer', async () => {
    const script = await writeScript(ws.dir, threeTurns);
    const result = await cli(['run', 'x', '--json', '--max-steps', '2'], {
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    });
    expect(result.code, result.stderr).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      stopReason: 'max_steps_exhausted',
      steps: 2,
      maxSteps: 2,
    });
  });

  it('keeps the prompt and answer in the session memory, unseen by another named session', async () => {
    await cli(['run', 'remember the password is swordfish', '--session', 'alpha']);
    await cli(['run', 'what was it?', '--session', 'beta']);
    const lines = await memoryLines();
    const alpha = lines.filter((l) => l.sessionKey.endsWith('-alpha'));
    const beta = lines.filter((l) => l.sessionKey.endsWith('-beta'));
    expect(alpha.map((l) => [l.key, l.value])).toEqual([
      ['last_prompt', 'remember the password is swordfish'],
      ['last_response', 'remember the password is swordfish'],
    ]);
    expect(beta.map((l) => l.value)).toEqual(['what was it?', 'what was it?']);
    expect(JSON.stringify(beta)).not.toContain('swordfish');
    expect(alpha[0]?.sessionKey).toMatch(/^cli-[0-9a-f]{12}-alpha$/);
  });

  it('reads the prompt from stdin when it is "-"', async () => {
    const result = await cli(['run', '-'], {}, 'from stdin');
    expect(result.stdout).toBe('from stdin\n');
  });

  it('refuses to read outside the workdir and tells the model why', async () => {
    const script = await writeScript(ws.dir, {
      turns: [
        { tool_calls: [{ name: 'read', arguments: { path: '../../../etc/hostname' } }] },
        { text: 'ok' },
      ],
    });
    const result = await cli(['run', 'x'], {
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/← read failed: .*must stay under the workdir/);
  });

  it('exits 3 (no final answer) with a one-line error when the model keeps returning nothing', async () => {
    const script = await writeScript(ws.dir, { turns: [{ text: '' }, { text: '' }, { text: '' }] });
    const result = await cli(['run', 'x'], {
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('3 empty replies');
  });

  it('rejects bad flags with exit 2 and a pointer to help', async () => {
    for (const args of [
      ['run', '--mode', 'dance', 'x'],
      ['run', '--max-steps', 'abc', 'x'],
      ['run', '--max-steps', '0', 'x'],
      ['run', '--nope'],
      ['run', '--session', 'a\tb', 'x'],
      ['run', '--workdir', 'does-not-exist', 'x'],
      ['frobnicate'],
    ]) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/--help/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('runs in the directory given by --workdir', async () => {
    const script = await writeScript(ws.dir, {
      turns: [{ tool_calls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { text: 'ok' }],
    });
    const result = await cli(['run', 'x', '--workdir', 'notes', '--json'], {
      TINY_CLAW_PROVIDER: 'scripted',
      TINY_CLAW_SCRIPT: script,
    });
    expect(JSON.parse(result.stdout).workdir).toBe(ws.path('notes'));
    expect(result.stderr).toContain('← read ok');
  });
});

describe('traces of real runs', () => {
  it('writes a private trace for a run and shows it with trace show last and trace view last', async () => {
    const script = await writeScript(ws.dir, threeTurns);
    const env = { TINY_CLAW_PROVIDER: 'scripted', TINY_CLAW_SCRIPT: script };
    const run = await cli(['run', 'SECRET-PROMPT-WORDS', '--json'], env);
    const result = JSON.parse(run.stdout);
    expect(result.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(result.tracePath).toBe(
      ws.path(`.state/sessions/${result.sessionKey}/traces/${result.traceId}.json`),
    );
    const traceText = await readFile(result.tracePath, 'utf8');
    expect(traceText).not.toContain('SECRET-PROMPT-WORDS');
    expect(traceText).not.toContain('the file says alpha and beta');
    expect(traceText).not.toContain('notes/a.txt');
    const show = await cli(['trace', 'show', 'last'], env);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('agent.run');
    expect(show.stdout).toContain('tool.call');
    const view = await cli(['trace', 'view', 'last', '--out', ws.path('t.html')], env);
    expect(view.code, view.stderr).toBe(0);
    expect(await readFile(ws.path('t.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('writes no trace with TINY_CLAW_TRACE_MODE=off', async () => {
    const run = await cli(['run', 'hello', '--json'], { TINY_CLAW_TRACE_MODE: 'off' });
    expect(JSON.parse(run.stdout).traceId).toBeUndefined();
  });
});

describe('tiny-claw health', () => {
  it('names the provider it picked and why', async () => {
    const result = await cli(['health']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('provider=echo\n');
    expect(result.stdout).toContain(
      'provider_reason=auto: no OPENAI_API_KEY or ANTHROPIC_API_KEY configured',
    );
    expect(result.stdout).toContain('tools=read\n');
  });

  it('prints JSON with --json and never shows a full key', async () => {
    const result = await cli(['health', '--json'], {
      ANTHROPIC_API_KEY: 'sk-ant-supersecretvalue123',
      TINY_CLAW_PROVIDER: 'echo',
    });
    const json = JSON.parse(result.stdout);
    expect(json.provider).toMatchObject({
      name: 'echo',
      reason: 'explicit: TINY_CLAW_PROVIDER=echo',
    });
    expect(result.stdout).not.toContain('supersecretvalue');
  });

  it('exits 78 naming the variable and the value when a setting is invalid', async () => {
    const tokens = await cli(['health'], { TINY_CLAW_MAX_TOKENS: 'abc' });
    expect(tokens.code).toBe(78);
    expect(tokens.stderr).toContain('TINY_CLAW_MAX_TOKENS');
    expect(tokens.stderr).toContain('abc');
    const tools = await cli(['health'], { TINY_CLAW_ENABLED_TOOLS: 'read,hammer' });
    expect(tools.code).toBe(78);
    expect(tools.stderr).toContain('TINY_CLAW_ENABLED_TOOLS');
    expect(tools.stderr).toContain('hammer');
  });

  it('reads ./.env of a trusted folder but lets the real environment win', async () => {
    await ws.write('.env', 'TINY_CLAW_PROVIDER=scripted\nTINY_CLAW_MAX_TOKENS=77\n');
    expect((await cli(['trust'])).code).toBe(0);
    const result = await cli(['health', '--json'], { TINY_CLAW_PROVIDER: 'echo' });
    const json = JSON.parse(result.stdout);
    expect(json.provider.name).toBe('echo');
    expect(json.settings).toContainEqual({
      name: 'TINY_CLAW_MAX_TOKENS',
      value: '77',
      source: '.env',
    });
  });

  it('exits 78 when a chosen provider has no key', async () => {
    const result = await cli(['health'], { TINY_CLAW_PROVIDER: 'openai' });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('OPENAI_API_KEY is required');
  });
});

describe('tiny-claw itself', () => {
  it('prints its version and a help that documents the exit codes', async () => {
    const version = await cli(['--version']);
    expect(version.stdout).toMatch(/^tiny-claw \d+\.\d+\.\d+\n$/);
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const code of ['0 ', '1 ', '2 ', '4 ', '70', '71', '78', '130'])
      expect(help.stdout).toContain(`  ${code}`);
  });
});
