import { access, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ApprovalWorld,
  createApprovalWorld,
  inTerminal,
} from './__fixtures__/approval-cli.js';

// "Always" answers at the inline question, in a real pseudo-terminal. The user's config folder is
// a temporary one, so the rules file written is the test's own.
let world: ApprovalWorld;
let configHome: string;

beforeEach(async () => {
  world = await createApprovalWorld({ 'a.txt': 'alpha\n' });
  configHome = world.outside.path('config');
});
afterEach(() => world.cleanup());

const QUESTION = 'Approve? [y]es / [n]o / n <reason>:';
const bashCall = (command: string) => ({ tool_calls: [{ name: 'bash', arguments: { command } }] });
const questions = (output: string) => output.split(QUESTION).length - 1;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function runInTerminal(turns: Parameters<ApprovalWorld['script']>[0], answers: string[]) {
  const script = await world.script(turns);
  return inTerminal(world, ['run', 'go'], answers, {
    TINY_CLAW_SCRIPT: script,
    XDG_CONFIG_HOME: configHome,
  });
}

describe('"always" answers at the approval question', () => {
  it('shows what each answer would keep before asking', async () => {
    const session = await runInTerminal([bashCall('rm -f gone.txt'), { text: 'ok' }], ['y\r']);
    expect(session.code, session.output).toBe(0);
    const offer = session.output.indexOf('or approve and remember:');
    expect(offer).toBeGreaterThan(-1);
    expect(offer).toBeLessThan(session.output.indexOf(QUESTION));
    expect(session.output).toContain('[a]lways in this session');
    expect(session.output).toContain(
      `added to ${join(configHome, 'tiny-claw', 'rules.json')}: allow bash rm -f gone.txt in `,
    );
    // "y" approves once: nothing is written.
    expect(await exists(join(configHome, 'tiny-claw', 'rules.json'))).toBe(false);
  });

  it('"a" approves and the same call is not asked again in the session', async () => {
    const session = await runInTerminal(
      [bashCall('rm -f gone.txt'), bashCall('rm -f gone.txt'), { text: 'both ran' }],
      ['a\r', 'n should not be asked\r'],
    );
    expect(session.code, session.output).toBe(0);
    expect(questions(session.output)).toBe(1);
    expect(session.output).toContain('kept for this session: allow bash rm -f gone.txt');
    expect(session.output).toContain('both ran');
    // Nothing is written for a session answer.
    expect(await exists(join(configHome, 'tiny-claw', 'rules.json'))).toBe(false);
  });

  it('a different command in the same session is still asked', async () => {
    const session = await runInTerminal(
      [bashCall('rm -f gone.txt'), bashCall('rm a.txt'), { text: 'done' }],
      ['a\r', 'n keep it\r'],
    );
    expect(session.code, session.output).toBe(0);
    expect(questions(session.output)).toBe(2);
    expect(await readFile(world.ws.path('a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('"p" writes a rule scoped to the workdir, and a later run does not ask', async () => {
    const session = await runInTerminal([bashCall('rm -f gone.txt'), { text: 'ok' }], ['p\r']);
    expect(session.code, session.output).toBe(0);
    const file = join(configHome, 'tiny-claw', 'rules.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      rules: [
        {
          tool: 'bash',
          prefix: ['rm', '-f', 'gone.txt'],
          decision: 'allow',
          workdir: await realpath(world.ws.dir),
        },
      ],
    });
    const later = await world.run([bashCall('rm -f gone.txt'), { text: 'no question' }], [], {
      XDG_CONFIG_HOME: configHome,
    });
    expect(later.result.stopReason, later.cli.stderr).toBe('final');
    // A command the rule does not name still pauses.
    const other = await world.run([bashCall('rm -f gone.txt && rm a.txt')], [], {
      XDG_CONFIG_HOME: configHome,
    });
    expect(other.result.stopReason).toBe('approval_required');
  });

  it('offers no "always" when no rule could match, and does not take "a" there', async () => {
    const session = await runInTerminal(
      [bashCall('rm -f "$(cat list.txt)"'), { text: 'done' }],
      ['a\r', 'y\r'],
    );
    expect(session.code, session.output).toBe(0);
    expect(session.output).not.toContain('or approve and remember:');
    expect(session.output).toContain("answer 'y' to approve, 'n' to reject");
    expect(session.output).not.toContain("'a' to approve");
    expect(questions(session.output)).toBe(2);
  });
});
