import { readFile, stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { writeScript } from './script-file.js';
import { createTempWorkspace } from './temp-workspace.js';

describe('testkit', () => {
  it('creates a workspace with nested files and removes it on cleanup', async () => {
    const ws = await createTempWorkspace({ 'a/b/c.txt': 'deep' });
    expect(await readFile(ws.path('a/b/c.txt'), 'utf8')).toBe('deep');
    await ws.cleanup();
    await expect(stat(ws.dir)).rejects.toThrow();
  });

  it('refuses to write an invalid script', async () => {
    const ws = await createTempWorkspace();
    await expect(writeScript(ws.dir, { turns: [{ bad: 1 }] } as never)).rejects.toThrow(
      /Invalid script/,
    );
    const path = await writeScript(ws.dir, { turns: [{ text: 'ok' }] });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ turns: [{ text: 'ok' }] });
    await ws.cleanup();
  });

  it('runs a process with a clean environment that does not inherit secrets', async () => {
    process.env.TESTKIT_SECRET_TOKEN = 'leak-me';
    const ws = await createTempWorkspace({
      'show-env.js': 'process.stdout.write(JSON.stringify(process.env))',
    });
    const result = await runCli({ bin: ws.path('show-env.js'), args: [], env: { EXTRA: 'yes' } });
    delete process.env.TESTKIT_SECRET_TOKEN;
    const env = JSON.parse(result.stdout) as Record<string, string>;
    expect(result.code).toBe(0);
    expect(env.EXTRA).toBe('yes');
    expect(env.TESTKIT_SECRET_TOKEN).toBeUndefined();
    await ws.cleanup();
  });
});
