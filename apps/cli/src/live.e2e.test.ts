import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { describe, expect, it } from 'vitest';

// Live smoke tests against the real vendors: the seeds' read → edit demo, judged only by the file's
// final content. They run only when a key is present and are never part of the CI requirement.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

const vendors = [
  { provider: 'openai', key: 'OPENAI_API_KEY', extra: ['OPENAI_BASE_URL'] },
  { provider: 'claude', key: 'ANTHROPIC_API_KEY', extra: ['ANTHROPIC_BASE_URL'] },
] as const;

/** The CLI's environment for one vendor in `ws`, with the caller's base URL and model passed on. */
function liveEnv(
  vendor: (typeof vendors)[number],
  key: string,
  ws: TempWorkspace,
  more: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {
    TINY_CLAW_PROVIDER: vendor.provider,
    [vendor.key]: key,
    TINY_CLAW_STATE_DIR: ws.path('.state'),
    TINY_CLAW_WORKDIR: ws.dir,
    ...more,
  };
  for (const name of vendor.extra) if (process.env[name]) env[name] = process.env[name] as string;
  if (process.env.TINY_CLAW_MODEL) env.TINY_CLAW_MODEL = process.env.TINY_CLAW_MODEL;
  return env;
}

for (const vendor of vendors) {
  const key = process.env[vendor.key];
  describe.skipIf(!key)(`live ${vendor.provider} (skipped: ${vendor.key} is not set)`, () => {
    it('reads a file and edits one word in it', async () => {
      const ws = await createTempWorkspace({
        'greeting.py': 'def greet(name):\n    return "Hello, " + name\n',
      });
      try {
        const env = liveEnv(vendor, key as string, ws, {
          TINY_CLAW_ENABLED_TOOLS: 'read,edit',
          // Nobody is there to approve the edit.
          TINY_CLAW_APPROVAL_PROVIDER: 'off',
        });
        const result = await runCli({
          bin,
          args: [
            'run',
            'In greeting.py, change the word "Hello" to "Goodbye". Read the file first, then edit it.',
            '--max-steps',
            '8',
          ],
          env,
          cwd: ws.dir,
          timeoutMs: 180_000,
        });
        expect(result.code, result.stderr).toBe(0);
        expect(await readFile(ws.path('greeting.py'), 'utf8')).toBe(
          'def greet(name):\n    return "Goodbye, " + name\n',
        );
      } finally {
        await ws.cleanup();
      }
    }, 200_000);

    it('answers through the explorer with a fact only a file it read holds', async () => {
      const ws = await createTempWorkspace({
        'README.md': 'Service settings live under config/.\n',
        'config/ports.ts': 'export const ADMIN_PORT = 7341; // sentinel: LIVE-EXPLORER-QX19\n',
        'config/names.ts': 'export const SERVICE = "ledger";\n',
      });
      try {
        // The parent sees only explore: whatever it learns, the explorer read.
        const env = liveEnv(vendor, key as string, ws, { TINY_CLAW_ENABLED_TOOLS: 'explore' });
        const result = await runCli({
          bin,
          args: [
            'run',
            'Use the explore tool to find the admin port number of this service and the sentinel comment next to it, then tell me both.',
            '--max-steps',
            '6',
          ],
          env,
          cwd: ws.dir,
          timeoutMs: 240_000,
        });
        // Printed so a person running the live suite can see what the explorer did.
        console.log(`${result.stderr}\n---\n${result.stdout}`);
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).toMatch(/\[subagent_session=[^\]]+\] → read/);
        expect(result.stdout).toContain('7341');
        expect(result.stdout).toContain('LIVE-EXPLORER-QX19');
      } finally {
        await ws.cleanup();
      }
    }, 260_000);
  });
}
