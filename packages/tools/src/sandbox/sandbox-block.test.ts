import { describe, expect, it } from 'vitest';
import { sandboxBlockOf } from './sandbox-block.js';

const hidden = ['/home/me/.ssh', '~/.ssh', '/repo/.tiny-claw'];
const context = { command: 'true', hidden, network: false };

describe('telling a sandbox failure from an ordinary one', () => {
  it('a read-only file system outside the hidden paths is a read-only block', () => {
    expect(sandboxBlockOf('touch: cannot touch /usr/x: Read-only file system', context)).toBe(
      'read_only',
    );
  });

  it('a missing or denied hidden path is a hidden-path block, named in the output or the command', () => {
    expect(sandboxBlockOf('cat: /home/me/.ssh/id_rsa: No such file or directory', context)).toBe(
      'hidden_path',
    );
    expect(
      sandboxBlockOf('cat: id_rsa: No such file or directory', {
        ...context,
        command: 'cd ~/.ssh && cat id_rsa',
      }),
    ).toBe('hidden_path');
    expect(sandboxBlockOf('bash: /repo/.tiny-claw/x: Read-only file system', context)).toBe(
      'hidden_path',
    );
  });

  it('a hidden path inside the workdir counts when named relative to it, as a whole name', () => {
    const relative = { ...context, hidden: [...hidden, '.tiny-claw'] };
    expect(sandboxBlockOf('cat: .tiny-claw/salt: No such file or directory', relative)).toBe(
      'hidden_path',
    );
    expect(
      sandboxBlockOf('cat: my.tiny-claw/salt: No such file or directory', relative),
    ).toBeUndefined();
  });

  it('a path that merely starts like a hidden one is not it', () => {
    expect(
      sandboxBlockOf('cat: /home/me/.sshrc: No such file or directory', context),
    ).toBeUndefined();
  });

  it('name resolution and unreachable networks are network blocks only while the network is off', () => {
    const curl = 'curl: (6) Could not resolve host: example.com';
    expect(sandboxBlockOf(curl, context)).toBe('network');
    expect(sandboxBlockOf('connect: Network is unreachable', context)).toBe('network');
    expect(sandboxBlockOf('npm ERR! getaddrinfo EAI_AGAIN registry.npmjs.org', context)).toBe(
      'network',
    );
    expect(sandboxBlockOf(curl, { ...context, network: true })).toBeUndefined();
  });

  it('a unix socket the sandbox did not permit is a network block only while the network is off', () => {
    const refusals: Array<[output: string, command: string]> = [
      ['Error: connect EPERM /var/run/docker.sock', 'node client.js'],
      [
        'PermissionError: [Errno 1] Operation not permitted',
        'python3 -c "import socket; socket.socket(socket.AF_UNIX)"',
      ],
      ['fatal: unable to connect to cache daemon: Operation not permitted', 'git push'],
      ['Error connecting to agent: Operation not permitted', 'ssh-add -l'],
      ['socat[12] E socket(1, 1, 0): Operation not permitted', 'socat - UNIX-CONNECT:/run/x'],
      [
        "curl: (7) Failed to connect to localhost port 80 after 0 ms: Couldn't connect to server",
        'curl --unix-socket /run/x.sock http://localhost/',
      ],
    ];
    for (const [output, command] of refusals) {
      expect(sandboxBlockOf(output, { ...context, command }), output).toBe('network');
      expect(
        sandboxBlockOf(output, { ...context, command, network: true }),
        output,
      ).toBeUndefined();
    }
  });

  it('an Operation not permitted that is not about a socket is not a network block', () => {
    expect(
      sandboxBlockOf("chmod: changing permissions of 'x': Operation not permitted", context),
    ).toBeUndefined();
  });

  it('an ordinary failure is not blamed on the sandbox', () => {
    expect(sandboxBlockOf('cat: nope.txt: No such file or directory', context)).toBeUndefined();
    expect(sandboxBlockOf('FAIL src/a.test.ts > adds', context)).toBeUndefined();
  });

  it.each([
    ['error: could not write config file .git/config: Device or resource busy', 'git config x y'],
    ["mv: cannot move '.git' to 'old': Device or resource busy", 'mv .git old'],
    ['bash: .git/hooks/pre-commit: Read-only file system', 'echo x > .git/hooks/pre-commit'],
    [
      "fatal: cannot copy '/usr/share/git-core/templates/description' to '/repo/.git/description': Read-only file system",
      'git init',
    ],
    ['error: could not lock config file .git/config: File exists', 'git config a.b c'],
  ])('a refusal about guarded git metadata is a git block: %s', (output, command) => {
    const git = { ...context, command, gitProtected: ['/repo/.git', '.git', '.git/config'] };
    expect(sandboxBlockOf(output, git)).toBe('git_metadata');
  });

  it('a failure that only mentions a name like .github or .gitignore is not a git block', () => {
    const git = { ...context, gitProtected: ['/repo/.git', '.git'] };
    expect(sandboxBlockOf('cat: .github/x: No such file or directory', git)).toBeUndefined();
    expect(sandboxBlockOf('cat: .gitignore: Permission denied', git)).toBeUndefined();
  });
});
