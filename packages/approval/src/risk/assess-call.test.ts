import { ConfigurationError } from '@tiny-claw/core';
import { describe, expect, it } from 'vitest';
import type { ApprovalAssessor } from '../gate/approval-middleware.js';
import { everyVerdict, judgeBash, verdictsOf, WORKDIR } from './__fixtures__/judge.js';
import { assessCall } from './assess-call.js';
import { DEFAULT_APPROVAL_REQUIRED_TOOLS } from './risk-policy-options.js';

describe('assessCall', () => {
  it('allows plain read-only commands with no reasons', async () => {
    const commands = [
      'ls -la',
      'cat a.txt',
      'git status',
      'rg foo src',
      'git log --oneline -5 | head',
      'ls 2>/dev/null | wc -l',
      "sed -n '1,20p' a.txt",
      "find . -name '*.ts' | sort",
      '[[ -f a.txt ]] && cat a.txt',
      'echo "rm -rf x"',
      "bash -c 'ls -la'",
      'cd src && cat a.txt',
      'command -v git',
    ];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'allow'));
    expect(await judgeBash('ls -la')).toEqual({ verdict: 'allow', reasons: [] });
  });

  it('asks for anything not known to be read-only', async () => {
    expect(await judgeBash('terraform plan')).toEqual({
      verdict: 'approval_required',
      reasons: ['`terraform` is not on the list of read-only commands (`terraform plan`)'],
    });
  });

  it('asks for a redirection into a file the write tool would ask for', async () => {
    expect(await judgeBash('echo hi > package.json')).toEqual({
      verdict: 'approval_required',
      reasons: [
        'package manifests and package-manager settings decide what installs and runs (`> package.json`)',
      ],
    });
  });

  it('asks for a deploy, publish or release step and says why', async () => {
    const verdict = await judgeBash('./scripts/deploy.sh production');
    expect(verdict.verdict).toBe('approval_required');
    expect(verdict.reasons).toContain(
      'looks like a deploy, publish or release step (`./scripts/deploy.sh production`)',
    );
  });

  it('lists refusals first and each reason once', async () => {
    const verdict = await judgeBash('curl x; rm -rf .; rm -rf .; curl x');
    expect(verdict).toEqual({
      verdict: 'deny',
      reasons: ['deletes the whole workdir (`rm -rf .`)', 'uses the network (`curl x`)'],
    });
  });

  it('asks when a bash call runs outside the workdir and refuses one inside the state dir', async () => {
    expect(await judgeBash('ls', { cwd: '..' })).toEqual({
      verdict: 'approval_required',
      reasons: ['runs outside the workdir (cwd `..`)'],
    });
    expect((await judgeBash('ls', { cwd: '.tiny-claw' })).verdict).toBe('deny');
  });

  it('judges relative writes from every directory a cd in the command reaches', async () => {
    expect((await judgeBash('cd .git && echo x > config')).verdict).toBe('deny');
    expect((await judgeBash('cd src && echo x > ../.git/config')).verdict).toBe('deny');
  });

  it('asks when a line continuation inside a word reads differently to bash and to the parser', async () => {
    // bash runs `rg --pre=sh x`; split at the backslash it would look like a harmless rg.
    expect((await judgeBash('rg --pr\\\ne=sh x')).verdict).toBe('approval_required');
  });

  it('asks when a word computed at run time could be the option that makes a read-only command unsafe', async () => {
    expect(
      await verdictsOf([
        'tree -$(echo o) /srv/x',
        'test -f "$f"',
        'printf "$format" x',
        'printf "%s\\n" "$x"',
      ]),
    ).toEqual({
      'tree -$(echo o) /srv/x': 'approval_required',
      'test -f "$f"': 'approval_required',
      'printf "$format" x': 'approval_required',
      'printf "%s\\n" "$x"': 'allow',
    });
  });

  it('treats command names that are object keys as unknown commands', async () => {
    const commands = ['constructor', '__proto__ x', 'toString', 'hasOwnProperty a'];
    expect(await verdictsOf(commands)).toEqual(everyVerdict(commands, 'approval_required'));
  });

  it('fits the approval gate as its assessor', () => {
    const assess: ApprovalAssessor = (call, ctx) => assessCall(call, { workdir: ctx.workdir });
    expect(assess).toBeTypeOf('function');
  });

  it('allows tools that are not configured to need approval', async () => {
    expect(
      await assessCall({ name: 'read', arguments: { path: '.env' } }, { workdir: WORKDIR }),
    ).toEqual({
      verdict: 'allow',
      reasons: [],
    });
    const onlyWrite = { workdir: WORKDIR, requiredTools: ['write'] };
    expect(
      (await assessCall({ name: 'bash', arguments: { command: 'rm -rf /' } }, onlyWrite)).verdict,
    ).toBe('allow');
  });

  it('asks for any other tool listed as needing approval', async () => {
    const options = {
      workdir: WORKDIR,
      requiredTools: [...DEFAULT_APPROVAL_REQUIRED_TOOLS, 'fetch'],
    };
    expect(
      await assessCall({ name: 'fetch', arguments: { url: 'http://127.0.0.1/' } }, options),
    ).toEqual({
      verdict: 'approval_required',
      reasons: ['fetch is configured to need approval'],
    });
  });

  it('asks when a bash call has no command string', async () => {
    expect(
      await assessCall({ name: 'bash', arguments: { cmd: 'ls' } }, { workdir: WORKDIR }),
    ).toEqual({
      verdict: 'approval_required',
      reasons: ['the bash call has no command string to check'],
    });
  });

  it('rejects invalid options with an error that names the field', async () => {
    const call = { name: 'bash', arguments: { command: 'ls' } };
    await expect(assessCall(call, { workdir: 'relative/dir' })).rejects.toThrow(ConfigurationError);
    await expect(assessCall(call, { workdir: 'relative/dir' })).rejects.toThrow(
      /workdir: must be an absolute path/,
    );
  });
});
