import { execFileSync } from 'node:child_process';
import {
  access,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Tool, ToolOutput } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../../bash/index.js';
import { sandboxStatus } from '../sandbox-status.js';

// What a sandboxed command may do to git's metadata, and what it must never achieve: that the
// user's next git command (status, an alias, diff, commit, rebase --continue) runs something the
// command planted. Every attack below runs through the bash tool in the real bubblewrap sandbox;
// the user's git runs afterwards on the host, unsandboxed, as the user would run it.

const usable = sandboxStatus('bwrap').active === 'bwrap';
const hasGit = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let base: string;
let workdir: string;
let marker: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  // Outside /tmp, which the sandbox replaces with a private one.
  const parent = (await access('/var/tmp').then(
    () => true,
    () => false,
  ))
    ? '/var/tmp'
    : tmpdir();
  base = await realpath(await mkdtemp(path.join(parent, 'tc-git-guard-')));
  workdir = path.join(base, 'w');
  marker = path.join(base, 'PLANTED-CODE-RAN');
  await mkdir(workdir);
  await mkdir(path.join(base, 'home'));
  // Commands inside the sandbox get a scrubbed environment (no GIT_AUTHOR_*): their identity comes
  // from the global configuration, as a user's would.
  await writeFile(
    path.join(base, 'home', '.gitconfig'),
    '[user]\n\tname = Tester\n\temail = tester@example.com\n',
  );
  env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(base, 'home'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Tester',
    GIT_AUTHOR_EMAIL: 'tester@example.com',
    GIT_COMMITTER_NAME: 'Tester',
    GIT_COMMITTER_EMAIL: 'tester@example.com',
  };
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** git on the host, as the user runs it; failures are returned, not thrown. */
function userGit(args: readonly string[], cwd = workdir): { ok: boolean; output: string } {
  try {
    const output = execFileSync('git', args, {
      cwd,
      env: { ...env, GIT_EDITOR: 'true' },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function commitFile(name: string, content: string, cwd = workdir): Promise<void> {
  await writeFile(path.join(cwd, name), content);
  userGit(['add', name], cwd);
  userGit(['commit', '-q', '-m', `add ${name}`], cwd);
}

async function makeRepository(dir = workdir): Promise<void> {
  await mkdir(dir, { recursive: true });
  userGit(['init', '-q', '-b', 'main'], dir);
  await commitFile('README.md', 'hello\n', dir);
}

async function sandboxed(command: string): Promise<ToolOutput> {
  const bash = createBashTool({ sandbox: 'bwrap', env }) as Tool;
  return bash.run(bash.parse({ command }), {
    workdir,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    visibleTools: ['bash'],
  });
}

/**
 * A shell function that plants, in configuration file $1 and hooks directory $2, everything git
 * would run: an fsmonitor (git status), an alias (git st), an external diff (git diff), a pager,
 * and every hook a status, commit or checkout runs.
 */
function plant(): string {
  const hook = `#!/bin/sh\\ntouch ${marker}\\n`;
  return [
    'plant() {',
    '  mkdir -p "$2";',
    '  for h in pre-commit commit-msg post-commit post-index-change post-checkout reference-transaction; do',
    `    printf '${hook}' > "$2/$h"; chmod +x "$2/$h";`,
    '  done;',
    `  printf '[core]\\n\\tfsmonitor = touch ${marker}; false\\n\\thooksPath = %s\\n\\tpager = touch ${marker}; cat\\n[alias]\\n\\tst = !touch ${marker}\\n[diff]\\n\\texternal = touch ${marker}\\n' "$2" >> "$1";`,
    '}; ',
  ].join('\n');
}

/** The user's next git commands; none may run planted code. */
async function userRunsGit(): Promise<void> {
  userGit(['status']);
  userGit(['st']);
  userGit(['diff']);
  userGit(['-p', 'log', '-1']);
  userGit(['commit', '-q', '--allow-empty', '-m', 'next']);
  userGit(['checkout', '-q', '-b', `after-${Date.now()}`]);
}

async function markerExists(): Promise<boolean> {
  return access(marker).then(
    () => true,
    () => false,
  );
}

interface Attack {
  /** The rule the case proves. */
  rule: string;
  setup: () => Promise<void>;
  /** The command; `MARKER` stands for the file planted code would create. */
  command: string;
  /** What the guard must report having undone, by reason (empty: the sandbox refused it). */
  undone?: readonly string[];
}

const repository = () => makeRepository();

async function withSubmodule(): Promise<void> {
  await makeRepository(path.join(base, 'origin'));
  await repository();
  userGit(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', '../origin', 'sub']);
  userGit(['commit', '-q', '-m', 'submodule']);
}

const attacks: Attack[] = [
  {
    rule: 'appending to .git/config fails: the configuration is read-only',
    setup: repository,
    command: 'plant .git/config .git/hooks',
  },
  {
    rule: 'git config cannot set a program either',
    setup: repository,
    command: `git config core.fsmonitor "touch MARKER"; git config alias.st "!touch MARKER"`,
  },
  {
    rule: 'a .git/commondir redirect to a planted git directory is moved aside',
    setup: repository,
    command:
      'git init -q --bare evil && plant evil/config evil/hooks && echo ../evil > .git/commondir',
    undone: ['control_file'],
  },
  {
    rule: 'config.worktree is moved aside',
    setup: repository,
    command: 'plant .git/config.worktree .git/hooks-x',
    undone: ['control_file'],
  },
  {
    rule: 'renaming .git away to put a planted repository in its place fails (it is pinned)',
    setup: repository,
    command: 'mv .git old; git init -q . ; plant .git/config .git/hooks',
  },
  {
    rule: 'deleting .git and initialising a new one cannot replace its configuration',
    setup: repository,
    command: 'rm -rf .git; git init -q . ; plant .git/config .git/hooks',
  },
  {
    rule: 'a worktree added under .git/worktrees is moved aside',
    setup: repository,
    command: 'git worktree add -q wt && plant .git/worktrees/wt/config.worktree wt-hooks',
    undone: ['control_file'],
  },
  {
    rule: 'git init in a workdir without a repository fails (an empty read-only .git stands in)',
    setup: async () => {},
    command: 'git init -q . ; plant .git/config .git/hooks',
  },
  {
    rule: 'the workdir turned into a bare repository is undone',
    setup: async () => {},
    command: 'git init -q --bare . && plant config hooks',
    undone: ['bare_repository'],
  },
  {
    rule: 'a repository inside a parent repository cannot be created at the workdir',
    setup: async () => {
      await makeRepository(base);
      await mkdir(workdir, { recursive: true });
    },
    command: 'git init -q . ; plant .git/config .git/hooks',
  },
  {
    rule: 'an included configuration file that did not exist is moved aside',
    setup: async () => {
      await repository();
      userGit(['config', 'include.path', '../team.gitconfig']);
    },
    command: 'plant team.gitconfig planted-hooks',
    undone: ['included_config'],
  },
  {
    rule: 'an included configuration file that exists is read-only',
    setup: async () => {
      await repository();
      await writeFile(path.join(workdir, 'team.gitconfig'), '[user]\n\tname = Team\n');
      userGit(['config', 'include.path', '../team.gitconfig']);
    },
    command: 'plant team.gitconfig planted-hooks',
  },
  {
    rule: 'the hooks directory core.hooksPath names (husky) is read-only',
    setup: async () => {
      await repository();
      await mkdir(path.join(workdir, '.husky', '_'), { recursive: true });
      userGit(['config', 'core.hooksPath', '.husky/_']);
    },
    command: `printf '#!/bin/sh\\ntouch MARKER\\n' > .husky/_/pre-commit; chmod +x .husky/_/pre-commit`,
  },
  {
    rule: 'a missing hooks directory that core.hooksPath names is moved aside once created',
    setup: async () => {
      await repository();
      userGit(['config', 'core.hooksPath', '.husky/_']);
    },
    command: `mkdir -p .husky/_ && printf '#!/bin/sh\\ntouch MARKER\\n' > .husky/_/pre-commit && chmod +x .husky/_/pre-commit`,
    undone: ['hooks_path'],
  },
  {
    rule: "a checked-out submodule's git directory under .git/modules is read-only",
    setup: withSubmodule,
    command: 'plant .git/modules/sub/config .git/modules/sub/hooks',
  },
  {
    rule: "a checked-out submodule's .git cannot be pointed at a planted repository",
    setup: withSubmodule,
    command:
      'git init -q evil && plant evil/.git/config evil/.git/hooks; echo "gitdir: ../evil/.git" > sub/.git || { mv sub/.git sub/old; ln -s ../evil/.git sub/.git; }',
  },
  {
    rule: 'a repository planted where a submodule is not checked out is moved aside',
    setup: async () => {
      await withSubmodule();
      userGit(['submodule', 'deinit', '-q', '-f', 'sub']);
    },
    command: 'cd sub && git init -q && plant .git/config .git/hooks',
    undone: ['submodule_repository'],
  },
  {
    rule: 'a planted repository added to the index as a submodule is moved aside',
    setup: repository,
    command:
      'mkdir s && cd s && git init -q && git commit -q --allow-empty -m x && plant .git/config .git/hooks && cd .. && git add s 2>/dev/null && git commit -q -m s',
    undone: ['submodule_repository'],
  },
  {
    rule: 'exec lines planted in a paused rebase are removed',
    setup: async () => {
      await repository();
      await commitFile('second.txt', '2\n');
    },
    command: `GIT_SEQUENCE_EDITOR='f() { { echo break; cat "$1"; echo "exec touch MARKER"; } > "$1.new" && mv "$1.new" "$1"; }; f' git rebase -q -i HEAD~1`,
    undone: ['rebase_exec'],
  },
];

describe.skipIf(!usable || !hasGit)('git metadata in the bubblewrap sandbox', () => {
  it.each(attacks)('$rule', async (attack) => {
    await attack.setup();
    const result = await sandboxed(`${plant()}\n${attack.command.replaceAll('MARKER', marker)}`);
    const undone = (result.metadata?.git_guard ?? []) as { reason: string; failed?: string }[];
    expect(undone.filter((action) => action.failed !== undefined)).toEqual([]);
    expect([...new Set(undone.map((action) => action.reason))].sort()).toEqual(
      [...(attack.undone ?? [])].sort(),
    );
    if (undone.length > 0) expect(result.content).toContain('tiny-claw undid it');
    await userRunsGit();
    userGit(['rebase', '--continue']);
    expect(await markerExists()).toBe(false);
  });

  it('git add, commit, checkout -b, stash, merge and tag work in the sandbox and leave nothing to undo', async () => {
    await makeRepository();
    const result = await sandboxed(
      [
        'git checkout -q -b feature',
        'echo change >> README.md && git add README.md && git commit -q -m change',
        'echo wip > wip.txt && git add wip.txt && git stash -q && git stash pop -q',
        'git add wip.txt && git commit -q -m wip',
        'git checkout -q main && git merge -q --no-edit feature && git tag v1',
        'git log --oneline | wc -l',
      ].join(' && '),
    );
    expect(result.isError).toBe(false);
    expect(result.metadata?.git_guard).toBeUndefined();
    expect(userGit(['log', '--oneline']).output.trim().split('\n')).toHaveLength(3);
    expect(userGit(['tag']).output.trim()).toBe('v1');
  });

  it('the stand-in .git of a workdir without a repository is gone after the command', async () => {
    const result = await sandboxed('ls -a');
    expect(result.isError).toBe(false);
    expect(await readdir(workdir)).toEqual([]);
  });

  it('an empty .git left by a process killed mid-command is removed by the next command', async () => {
    await mkdir(path.join(workdir, '.git'));
    expect((await sandboxed('true')).isError).toBe(false);
    expect(await readdir(workdir)).toEqual([]);
  });

  it('a failed write to git configuration gets advice that says why', async () => {
    await makeRepository();
    const result = await sandboxed('git config core.editor vim');
    expect(result.isError).toBe(true);
    expect(result.metadata?.sandbox_block).toBe('git_metadata');
    expect(result.failure?.advice ?? '').toContain('git config');
    expect(await readFile(path.join(workdir, '.git', 'config'), 'utf8')).not.toContain('vim');
  });

  it('renaming .git away gets the same advice', async () => {
    await makeRepository();
    const result = await sandboxed('mv .git .git-old');
    expect(result.metadata?.sandbox_block).toBe('git_metadata');
  });
});

describe.skipIf(!usable)('a settings file the sandbox hides but that does not exist yet', () => {
  it('is moved aside when a command creates it in the workdir, so tiny-claw never reads planted settings', async () => {
    const settings = path.join(workdir, 'server.env');
    const bash = createBashTool({ sandbox: { mode: 'bwrap', hide: [settings] }, env }) as Tool;
    const result = await bash.run(
      bash.parse({ command: 'echo TINY_CLAW_SANDBOX=off > server.env' }),
      {
        workdir,
        signal: new AbortController().signal,
        toolCallId: 'call-1',
        visibleTools: ['bash'],
      },
    );
    const undone = (result.metadata?.git_guard ?? []) as { reason: string; path: string }[];
    expect(undone.map((action) => [action.reason, action.path])).toEqual([
      ['hidden_created', settings],
    ]);
    await expect(access(settings)).rejects.toThrow(/ENOENT/);
    expect(result.content).toContain("tiny-claw's own settings files");
  });
});
