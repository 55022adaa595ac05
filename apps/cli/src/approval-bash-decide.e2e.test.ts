import { access } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, bin, createApprovalWorld } from './__fixtures__/approval-cli.js';

// The agent cannot decide its own approvals or widen what it trusts through bash: through the
// real binary, such a command is refused outright, and the request it aimed at stays pending.
let world: ApprovalWorld;

beforeEach(async () => {
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
});
afterEach(() => world.cleanup());

const bash = (command: string) => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });

describe('a bash call that runs the tiny-claw CLI', () => {
  it('is refused when it would approve a request, which stays pending and never runs', async () => {
    const paused = await world.run([
      { tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }] },
    ]);
    expect(paused.cli.code, paused.cli.stderr).toBe(4);
    const id = paused.result.approvalId as string;

    for (const command of [
      `tiny-claw approvals approve ${id}`,
      `npx -y tiny-claw@latest approvals approve ${id} --json`,
      `TINY_CLAW_STATE_DIR=${world.stateDir} node ${bin} approvals reject ${id}`,
    ]) {
      const { cli, result } = await world.run([bash(command), { text: 'could not approve it' }]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(result.stopReason).toBe('final');
      expect(cli.stderr).toContain('decides approvals');
      expect(cli.stderr).toContain('only a person may do that, outside the agent');
      expect(cli.stderr).not.toContain('paused');
    }
    expect((await world.record(id)).status).toBe('pending');
    const written = await access(world.ws.path('.env')).then(
      () => true,
      () => false,
    );
    expect(written).toBe(false);
  });

  it('is refused when it would trust or untrust a folder', async () => {
    for (const command of ['tiny-claw trust .', 'pnpm exec tiny-claw untrust .']) {
      const { cli, result } = await world.run([bash(command), { text: 'done' }]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(result.stopReason).toBe('final');
      expect(cli.stderr).toContain('changes trusted folders');
    }
  });
});
