import { describe, expect, it } from 'vitest';
import { STATE_DIR, WORKDIR } from './__fixtures__/judge.js';
import { assessCall } from './assess-call.js';
import type { RiskVerdict } from './risk-verdict.js';

function write(path: string): Promise<RiskVerdict> {
  return assessCall(
    { name: 'write', arguments: { path, content: 'x' } },
    { workdir: WORKDIR, protectedPaths: [STATE_DIR] },
  );
}

function edit(path: string, oldText: string, newText: string): Promise<RiskVerdict> {
  return assessCall(
    { name: 'edit', arguments: { path, old_text: oldText, new_text: newText } },
    { workdir: WORKDIR, protectedPaths: [STATE_DIR] },
  );
}

const lines = (count: number): string =>
  Array.from({ length: count }, (_, index) => `line ${index}\n`).join('');

describe('write and edit', () => {
  it('allows an ordinary source file', async () => {
    expect(await write('src/index.ts')).toEqual({ verdict: 'allow', reasons: [] });
    expect(await edit('src/index.ts', 'a', 'b')).toEqual({ verdict: 'allow', reasons: [] });
  });

  it('asks for .env files, lock files, manifests and package-manager settings', async () => {
    const paths = [
      '.env',
      '.env.local',
      'config/.env.production',
      'package-lock.json',
      'pnpm-lock.yaml',
      'yarn.lock',
      'uv.lock',
      'poetry.lock',
      'Cargo.lock',
      'pyproject.toml',
      'package.json',
      'packages/app/package.json',
      'pnpm-workspace.yaml',
      '.npmrc',
    ];
    for (const path of paths) expect((await write(path)).verdict, path).toBe('approval_required');
    expect((await write('pnpm-lock.yaml')).reasons).toEqual([
      'lock files pin the exact dependencies installed (`pnpm-lock.yaml`)',
    ]);
  });

  it('asks for CI configuration', async () => {
    for (const path of [
      '.github/workflows/ci.yml',
      '.gitlab-ci.yml',
      '.circleci/config.yml',
      'Jenkinsfile',
    ]) {
      expect((await write(path)).verdict, path).toBe('approval_required');
    }
  });

  it('asks when secret or key is a word of a path segment, not merely inside one', async () => {
    for (const path of [
      'secrets/x',
      'config/api_key.txt',
      'awsKey.json',
      'keys/deploy.pem',
      'SECRET.md',
    ]) {
      expect((await write(path)).verdict, path).toBe('approval_required');
    }
    for (const path of ['monkey.ts', 'src/keyboard.ts', 'turkey/secretary.md']) {
      expect((await write(path)).verdict, path).toBe('allow');
    }
  });

  it('refuses writes into .git, into a protected path and outside the workdir', async () => {
    expect(await write('.git/hooks/pre-commit')).toEqual({
      verdict: 'deny',
      reasons: ['writes into the .git directory (`.git/hooks/pre-commit`)'],
    });
    expect((await write('vendor/lib/.git/config')).verdict).toBe('deny');
    expect((await write(`${STATE_DIR}/approvals/a.json`)).verdict).toBe('deny');
    expect((await edit('../other/file.ts', 'a', 'b')).reasons).toEqual([
      'writes outside the workdir (`../other/file.ts`)',
    ]);
    expect((await write('/etc/hosts')).verdict).toBe('deny');
  });

  it('asks for an edit that deletes 20 lines or more, counting removed minus added lines', async () => {
    expect(await edit('src/a.ts', lines(25), lines(5))).toEqual({
      verdict: 'approval_required',
      reasons: ['the edit deletes 20 lines (`src/a.ts`)'],
    });
    expect((await edit('src/a.ts', lines(24), lines(5))).verdict).toBe('allow');
    expect((await edit('src/a.ts', lines(40), lines(40))).verdict).toBe('allow');
  });

  it('asks when an edit does not say what it replaces, or a call has no path', async () => {
    const options = { workdir: WORKDIR };
    expect((await assessCall({ name: 'edit', arguments: { path: 'a.ts' } }, options)).verdict).toBe(
      'approval_required',
    );
    expect(await assessCall({ name: 'write', arguments: { content: 'x' } }, options)).toEqual({
      verdict: 'approval_required',
      reasons: ['the write call has no path to check'],
    });
  });
});
