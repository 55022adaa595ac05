import { access } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld } from './__fixtures__/approval-cli.js';

// A request paused in a process that could run bash, decided from one that cannot: through the
// real binary, the approval is refused before it is claimed, so it is not used up for nothing.
let world: ApprovalWorld;

beforeEach(async () => {
  world = await createApprovalWorld({ 'build.log': 'old\n' });
});
afterEach(() => world.cleanup());

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function pausedBash(): Promise<string> {
  const { cli, result } = await world.run([
    { tool_calls: [{ name: 'bash', arguments: { command: 'rm build.log' } }] },
  ]);
  expect(cli.code, cli.stderr).toBe(4);
  return result.approvalId as string;
}

describe('approving a call from a process whose settings do not enable its tool', () => {
  it('exits 78 naming TINY_CLAW_ENABLED_TOOLS, keeps the request pending, and a correct process approves it later', async () => {
    const id = await pausedBash();
    const refused = await world.decide(['approve', id], undefined, {
      TINY_CLAW_ENABLED_TOOLS: 'read',
    });
    expect(refused.code).toBe(78);
    expect(refused.stderr).toContain(`approval ${id} is for a bash call`);
    expect(refused.stderr).toContain('TINY_CLAW_ENABLED_TOOLS');
    expect(refused.stderr).toContain('the request is still pending');
    expect(refused.stderr).not.toMatch(/approved by/);
    expect((await world.record(id)).status).toBe('pending');
    expect(await exists(world.ws.path('build.log'))).toBe(true);

    const approved = await world.decide(['approve', id]);
    expect(approved.code, approved.stderr).toBe(0);
    expect((await world.record(id)).status).toBe('consumed');
    expect(await exists(world.ws.path('build.log'))).toBe(false);
  });

  it('names TINY_CLAW_TOOL_DENYLIST or TINY_CLAW_TOOL_ALLOWLIST when one of them keeps the tool out', async () => {
    const id = await pausedBash();
    const denied = await world.decide(['approve', id], undefined, {
      TINY_CLAW_TOOL_DENYLIST: 'bash',
    });
    expect(denied.code).toBe(78);
    expect(denied.stderr).toContain('TINY_CLAW_TOOL_DENYLIST');
    const notAllowed = await world.decide(['approve', id], undefined, {
      TINY_CLAW_TOOL_ALLOWLIST: 'read,write',
    });
    expect(notAllowed.code).toBe(78);
    expect(notAllowed.stderr).toContain('TINY_CLAW_TOOL_ALLOWLIST');
    expect((await world.record(id)).status).toBe('pending');
  });

  it('still lets such a process reject the call, which runs nothing', async () => {
    const id = await pausedBash();
    const rejected = await world.decide(['reject', id, 'not now'], undefined, {
      TINY_CLAW_ENABLED_TOOLS: 'read',
    });
    expect(rejected.code, rejected.stderr).toBe(0);
    expect((await world.record(id)).status).toBe('rejected');
    expect(await exists(world.ws.path('build.log'))).toBe(true);
  });
});
