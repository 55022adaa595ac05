import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTempWorkspace, runCli, type TempWorkspace } from '@tiny-claw/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The built binary, as a user runs it: `tiny-claw serve` was the original's server command.
const bin = resolve(dirname(fileURLToPath(import.meta.url)), '../bin/tiny-claw.js');

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await createTempWorkspace({});
});
afterEach(() => ws.cleanup());

const cli = (args: string[]) =>
  runCli({
    bin,
    args,
    cwd: ws.dir,
    env: { TINY_CLAW_STATE_DIR: ws.path('.state'), TINY_CLAW_WORKDIR: ws.dir },
  });

describe('tiny-claw serve', () => {
  it.each([
    [['serve']],
    [['server']],
    [['serve', '--port', '8000']],
    [['--allow-root-workdir', 'server', '--host', '0.0.0.0']],
  ])('%j exits 2 and points to tiny-claw-server, how to start it and its flags', async (args) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const name = args.find((arg) => arg === 'serve' || arg === 'server');
    expect(result.stderr).toContain(`tiny-claw: "${name}" is not a tiny-claw command`);
    expect(result.stderr).toContain('tiny-claw-server, from the @tiny-claw/server package');
    expect(result.stderr).toContain('  pnpm exec tiny-claw-server --host 127.0.0.1 --port 8000\n');
    for (const flag of ['--host', '--port', '--feishu-path', '--mode', '--max-steps', '--env-file'])
      expect(result.stderr).toContain(flag);
    expect(result.stderr).not.toContain('unknown command');
  });

  it('leaves any other unknown command an ordinary usage error that lists the commands', async () => {
    const result = await cli(['servce']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown command "servce": expected run, plan, approvals');
    expect(result.stderr).not.toContain('tiny-claw-server');
  });

  it('is mentioned in --help, which names the server program', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tiny-claw-server (package @tiny-claw/server)');
    expect(help.stdout).toContain('pnpm exec tiny-claw-server --help');
  });
});
