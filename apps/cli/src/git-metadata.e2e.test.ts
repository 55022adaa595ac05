import { execFileSync } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalWorld, createApprovalWorld } from './__fixtures__/approval-cli.js';
import { cliSandbox } from './__fixtures__/cli-sandbox.js';

// Git metadata as a user meets it, with default settings: the model's bash call (a script the
// policy cannot see into) pauses for approval, a person approves it from another process, it runs
// in the sandbox — and afterwards
// the user's own git commands on the host run nothing the command planted, while ordinary
// git work (add, commit, checkout -b) still gets done.

let world: ApprovalWorld;
let sandboxed = false;
let marker: string;

const gitEnv = () => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: world.outside.path('home'),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'User',
  GIT_AUTHOR_EMAIL: 'user@example.com',
  GIT_COMMITTER_NAME: 'User',
  GIT_COMMITTER_EMAIL: 'user@example.com',
  GIT_EDITOR: 'true',
});

/** git as the user runs it on the host; failures are returned, not thrown. */
function userGit(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: world.ws.dir, env: gitEnv(), encoding: 'utf8' });
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
}

async function makeRepository(): Promise<void> {
  userGit('init', '-q', '-b', 'main');
  userGit('add', '-A');
  userGit('commit', '-q', '-m', 'start');
}

const planted = () =>
  access(marker).then(
    () => true,
    () => false,
  );

/** The model asks to run `command`; the run pauses; a person approves it from another process. */
async function approvedCommand(command: string) {
  const { cli, result } = await world.run([
    { tool_calls: [{ name: 'bash', arguments: { command } }] },
    { text: 'never' },
  ]);
  expect(cli.code, cli.stderr).toBe(4);
  const approved = await world.decide(['approve', result.approvalId as string]);
  expect(approved.code, approved.stderr).toBe(0);
  return approved;
}

beforeAll(async () => {
  sandboxed = (await cliSandbox()).active === 'bwrap';
});

beforeEach(async () => {
  world = await createApprovalWorld({ 'README.md': 'hello\n' });
  await mkdir(world.outside.path('home'), { recursive: true });
  marker = world.outside.path('PLANTED-CODE-RAN');
  Object.assign(world.env, {
    HOME: world.outside.path('home'),
    GIT_CONFIG_NOSYSTEM: '1',
    // The home directory lies under /tmp, which the sandbox replaces: the identity travels in the
    // environment instead of ~/.gitconfig.
    GIT_AUTHOR_NAME: 'Agent',
    GIT_AUTHOR_EMAIL: 'agent@example.com',
    GIT_COMMITTER_NAME: 'Agent',
    GIT_COMMITTER_EMAIL: 'agent@example.com',
  });
});
afterEach(() => world.cleanup());

const config = (file: string) =>
  `printf '[core]\\n\\tfsmonitor = touch MARKER; false\\n[alias]\\n\\tst = !touch MARKER\\n' >> ${file}`;

const attacks: { rule: string; repository: boolean; command: string }[] = [
  {
    rule: 'a .git/commondir pointing at a planted git directory',
    repository: true,
    command: `git init -q --bare evil && ${config('evil/config')} && echo ../evil > .git/commondir`,
  },
  {
    rule: 'the .git directory swapped for a planted one',
    repository: true,
    command: `mv .git .git-old; git init -q . ; ${config('.git/config')}`,
  },
  {
    rule: 'git config of a program in the existing repository',
    repository: true,
    command: 'git config core.fsmonitor "touch MARKER; false"; git config alias.st "!touch MARKER"',
  },
  {
    rule: 'a planted repository added as a submodule, which git status enters',
    repository: true,
    command: `mkdir s && cd s && git init -q && git commit -q --allow-empty -m s && ${config('.git/config')} && cd .. && git add s 2>/dev/null && git commit -q -m s`,
  },
  {
    rule: 'git init and git config in a workdir with no repository',
    repository: false,
    command: `git init -q . ; ${config('.git/config')}`,
  },
  {
    rule: 'the workdir turned into a bare repository',
    repository: false,
    command: `git init -q --bare . && ${config('config')}`,
  },
];

describe('git metadata after an approved command, with default settings', () => {
  it.for(attacks)(
    '$rule: the user’s next git commands run nothing it planted',
    async (attack, context) => {
      if (!sandboxed) context.skip('bubblewrap is not usable here');
      // The policy refuses the plain spellings (writes into .git): a script is what it cannot see
      // into, as when a person approves `bash setup.sh` or `npm test`.
      await writeFile(
        path.join(world.ws.dir, 'setup.sh'),
        attack.command.replaceAll('MARKER', marker),
      );
      if (attack.repository) await makeRepository();
      await approvedCommand('bash setup.sh');
      userGit('status');
      userGit('st');
      userGit('commit', '-q', '--allow-empty', '-m', 'user commit');
      userGit('log', '-1');
      expect(await planted()).toBe(false);
    },
  );

  it('git add, git commit and git checkout -b work in the sandbox', async (context) => {
    if (!sandboxed) context.skip('bubblewrap is not usable here');
    await makeRepository();
    await writeFile(path.join(world.ws.dir, 'feature.txt'), 'new\n');
    const approved = await approvedCommand(
      'git checkout -q -b feature && git add feature.txt && git commit -q -m "add feature"',
    );
    expect(approved.stderr).toContain('← bash ok');
    expect(userGit('log', '--format=%s', '-1').trim()).toBe('add feature');
    expect(userGit('branch', '--show-current').trim()).toBe('feature');
  });
});
