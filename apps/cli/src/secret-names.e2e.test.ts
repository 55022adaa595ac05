import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace, writeScript } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The built CLI with the scripted model and replay tracing: what a run keeps of values stored
// under secret-looking names, in a file the model reads and in the environment bash inherits.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

const SECRET_NAMES = [
  'DATABASE_PASS',
  'NPM_CONFIG__AUTH',
  'LDAP_PASSWD',
  'AZURE_CREDENTIAL',
  'SERVICE_CREDENTIALS',
  'MYSQL_PWD',
  'SENTRY_DSN',
  'SESSION_ID',
  'PASSWORD_SALT',
  'STRIPE_KEY',
  'SLACK_WEBHOOK',
  'Proxy-Authorization',
];
const PLAIN_NAMES = ['KEYBOARD_LAYOUT', 'MAX_TOKENS', 'PASS_THROUGH', 'SORT_KEY', 'AUTHOR_NAME'];

// Plain words, not random-looking: only the name can tell that they are secret.
const fileValue = (index: number) => `swordfish-${index}-value`;
const envValue = (index: number) => `envsecret-${index}-value`;
const keptValue = (index: number) => `ordinary-${index}-value`;

let ws: TempWorkspace;
let outside: TempWorkspace;

beforeEach(async () => {
  const lines = [
    ...SECRET_NAMES.map((name, i) => `${name}=${fileValue(i)}`),
    ...PLAIN_NAMES.map((name, i) => `${name}=${keptValue(i)}`),
  ];
  ws = await createTempWorkspace({ 'service.env': `${lines.join('\n')}\n` });
  outside = await createTempWorkspace({}, 'tiny-claw-state-');
});
afterEach(async () => {
  await ws.cleanup();
  await outside.cleanup();
});

async function traceTexts(stateDir: string): Promise<string[]> {
  const entries = await readdir(stateDir, { recursive: true, withFileTypes: true });
  const traces = entries.filter((e) => e.isFile() && e.parentPath.endsWith('traces'));
  return Promise.all(traces.map((e) => readFile(join(e.parentPath, e.name), 'utf8')));
}

describe('values under secret names stay out of replay traces and out of bash', () => {
  it('redacts DATABASE_PASS, NPM_CONFIG__AUTH, *_PASSWD, *_CREDENTIAL(S) and the like in a file read into a replay trace, and bash never sees them in its environment', async () => {
    const stateDir = outside.path('state');
    const script = await writeScript(outside.dir, {
      turns: [
        {
          tool_calls: [
            { name: 'read', arguments: { path: 'service.env' } },
            { name: 'bash', arguments: { command: 'env' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const env = Object.fromEntries([
      ...SECRET_NAMES.filter((name) => /^\w+$/.test(name)).map((name, i) => [name, envValue(i)]),
      ...PLAIN_NAMES.map((name, i) => [name, keptValue(i)]),
    ]);
    const result = await runCli({
      bin,
      args: ['run', 'what does service.env configure?'],
      cwd: ws.dir,
      env: {
        ...env,
        TINY_CLAW_STATE_DIR: stateDir,
        TINY_CLAW_WORKDIR: ws.dir,
        TINY_CLAW_PROVIDER: 'scripted',
        TINY_CLAW_SCRIPT: script,
        TINY_CLAW_ENABLED_TOOLS: 'read,bash',
        TINY_CLAW_TRACE_MODE: 'replay',
        // About what bash inherits, not approval: `env` must simply run.
        TINY_CLAW_APPROVAL_PROVIDER: 'off',
      },
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const [trace, ...others] = await traceTexts(stateDir);
    expect(others).toEqual([]);
    const text = trace ?? '';
    // The bash output is in the trace: the environment dump ran and was recorded.
    expect(text).toContain('KEYBOARD_LAYOUT=ordinary-0-value');
    for (const [i, name] of SECRET_NAMES.entries()) {
      expect(text, name).not.toContain(fileValue(i));
      expect(text, name).not.toContain(envValue(i));
      expect(text, name).toContain(`${name}=[REDACTED:`);
    }
    for (const [i, name] of PLAIN_NAMES.entries()) {
      expect(text, name).toContain(`${name}=${keptValue(i)}`);
    }
  });
});
