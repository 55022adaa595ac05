import { access, readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApprovalWorld,
  createApprovalWorld,
  inTerminal,
} from './__fixtures__/approval-cli.js';

// The inline question, in a real pseudo-terminal: stdin and stdout are terminals there.
let world: ApprovalWorld;

beforeEach(async () => {
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
});
afterEach(() => world.cleanup());

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function runInTerminal(turns: Parameters<ApprovalWorld['script']>[0], answers: string[]) {
  const script = await world.script(turns);
  return inTerminal(world, ['run', 'go'], answers, { TINY_CLAW_SCRIPT: script });
}

const writeEnv = {
  tool_calls: [{ name: 'write', arguments: { path: '.env', content: 'TOKEN=1\n' } }],
};

describe('the approval question in a terminal', () => {
  it('shows the request with a diff, and y writes the file and the run ends final', async () => {
    const session = await runInTerminal([writeEnv, { text: 'token written' }], ['y\r']);
    expect(session.code, session.output).toBe(0);
    expect(session.output).toContain('⏸ write needs approval · ap_');
    expect(session.output).toMatch(/why\s+\.env files hold secrets/);
    expect(session.output).toMatch(/expires\s+\S+ \(in 60 min\)/);
    expect(session.output).toContain('new file .env');
    expect(session.output).toContain('+TOKEN=1');
    expect(session.output).toContain('✓ write approved by cli:');
    expect(session.output).toContain('token written');
    expect(session.output).toContain('stop=final');
    expect(await readFile(world.ws.path('.env'), 'utf8')).toBe('TOKEN=1\n');
  });

  it('n <reason> rejects: the file stays absent and the run goes on', async () => {
    const session = await runInTerminal(
      [writeEnv, { text: 'leaving it' }],
      ['n not on a friday\r'],
    );
    expect(session.code, session.output).toBe(0);
    expect(session.output).toMatch(/✗ write rejected by cli:\S+: not on a friday/);
    expect(session.output).toContain('leaving it');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('asks again when the run pauses again, until it ends', async () => {
    const session = await runInTerminal(
      [
        writeEnv,
        { tool_calls: [{ name: 'bash', arguments: { command: 'rm a.txt' } }] },
        { text: 'all done' },
      ],
      ['y\r', 'y\r'],
    );
    expect(session.code, session.output).toBe(0);
    expect(session.output).toContain('⏸ bash needs approval');
    expect(session.output).toMatch(/command:\s+rm a\.txt/);
    expect(session.output).toMatch(/runs:\s+· rm a\.txt/);
    expect(await exists(world.ws.path('a.txt'))).toBe(false);
    expect(session.output).toContain('all done');
  });

  it('Ctrl-C at the question leaves the request pending: exit 4 with the commands', async () => {
    const session = await runInTerminal([writeEnv], ['\x03']);
    expect(session.code, session.output).toBe(4);
    expect(session.output).toContain('no decision; the request stays pending.');
    expect(session.output).toMatch(/approve: tiny-claw approvals approve ap_\S+/);
    expect(await exists(world.ws.path('.env'))).toBe(false);
    const pending = await world.cli(['approvals', 'list', '--status', 'pending', '--json']);
    expect(JSON.parse(pending.stdout)).toHaveLength(1);
  });

  it('Ctrl-D at the question leaves the request pending: exit 4', async () => {
    const session = await runInTerminal([writeEnv], ['\x04']);
    expect(session.code, session.output).toBe(4);
    expect(session.output).toContain('no decision; the request stays pending.');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('an answer it does not understand, twice, leaves the request pending', async () => {
    const session = await runInTerminal([writeEnv], ['maybe\r', 'sure\r']);
    expect(session.code, session.output).toBe(4);
    expect(session.output).toContain("answer 'y' to approve, 'n' to reject");
    expect(session.output).toContain('no decision; the request stays pending.');
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('shows escape sequences from the model as text, never as terminal commands', async () => {
    const session = await runInTerminal(
      [
        {
          tool_calls: [
            { name: 'write', arguments: { path: '.env', content: 'A=\x1b[2J\x1b]0;x\x07\n' } },
          ],
        },
      ],
      ['n\r'],
    );
    expect(session.output).toContain('+A=\\x1b[2J\\x1b]0;x\\x07');
    expect(session.output).not.toContain('\x1b[2J');
    expect(session.output).not.toContain('\x1b]0;');
  });
});

describe('without a terminal', () => {
  it('never asks: a piped run exits 4 and prints the commands, even with y on stdin', async () => {
    const script = await world.script([writeEnv]);
    const piped = await world.cli(['run', 'go'], { TINY_CLAW_SCRIPT: script }, 'y\n');
    expect(piped.code).toBe(4);
    expect(piped.stderr).not.toContain('Approve?');
    expect(piped.stderr).toMatch(/approve: tiny-claw approvals approve ap_\S+\n/);
    expect(piped.stderr).toMatch(/reject: {2}tiny-claw approvals reject ap_\S+ "<reason>"\n/);
    expect(await exists(world.ws.path('.env'))).toBe(false);
  });

  it('never asks with --json, even in a terminal', async () => {
    const script = await world.script([writeEnv]);
    const session = await inTerminal(world, ['run', 'go', '--json'], [], {
      TINY_CLAW_SCRIPT: script,
    });
    expect(session.code, session.output).toBe(4);
    expect(session.output).not.toContain('Approve?');
    expect(session.output).toContain('"stopReason": "approval_required"');
    expect(session.output).toMatch(/"approvalId": "ap_/);
  });
});
