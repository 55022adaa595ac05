import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceContext } from './workspace-context.js';

let base: string;
let workdir: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-context-')));
  workdir = join(base, 'repo');
  await mkdir(workdir);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(relative: string, content: string): Promise<void> {
  const file = join(workdir, relative);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

const load = (prompt: string) => workspaceContext().load({ prompt, workdir });

const reviewSkill = [
  '---',
  'name: review',
  'description: Review a diff for bugs',
  'argument-hint: <path>',
  'allowed-tools: [Read, bash]',
  '---',
  `Review $ARGUMENTS using \${TINY_CLAW_SKILL_DIR}/checklist.md.`,
].join('\n');

describe('workspaceContext', () => {
  it('adds nothing for a workdir without AGENTS.md or skills', async () => {
    expect(await load('fix it')).toEqual({ system: [], warnings: [] });
  });

  it('orders AGENTS.md, the skill index, then the active skill', async () => {
    await put('AGENTS.md', 'Always run pnpm test before finishing.');
    await put('.claw/skills/review/SKILL.md', reviewSkill);
    const { system, warnings } = await load('$review src/a.ts');
    expect(system).toHaveLength(3);
    expect(system[0]).toContain('Project instructions from AGENTS.md');
    expect(system[1]).toContain('Available project skills from .claw/skills.');
    expect(system[2]).toContain('Active skill (explicit): review');
    expect(warnings).toEqual([]);
  });

  it('renders the AGENTS.md sentence ranked above skills and below core rules', async () => {
    await put('AGENTS.md', '\n  Use tabs for indentation in this repo.  \n');
    const { system } = await load('x');
    expect(system).toEqual([
      'Project instructions from AGENTS.md. These instructions have higher priority than skills and lower priority than Tiny Claw core rules.\n\nUse tabs for indentation in this repo.',
    ]);
  });

  it('cuts AGENTS.md at 32,000 characters and says so', async () => {
    await put('AGENTS.md', `${'a'.repeat(32_000)}TAIL`);
    const { system, warnings } = await load('x');
    const content = system[0] ?? '';
    expect(content).toContain('a'.repeat(32_000));
    expect(content).not.toContain('TAIL');
    expect(content.endsWith('\n\n[Project instructions truncated by Tiny Claw.]')).toBe(true);
    expect(warnings).toEqual([
      'AGENTS.md is longer than 32000 characters; only the first 32000 were used',
    ]);

    await put('AGENTS.md', 'a'.repeat(32_000));
    const exact = await load('x');
    expect(exact.system[0]).not.toContain('truncated');
  });

  it('refuses an AGENTS.md symlink that escapes the workdir', async () => {
    await writeFile(join(base, 'secret.md'), 'SECRET INSTRUCTIONS');
    await symlink(join(base, 'secret.md'), join(workdir, 'AGENTS.md'));
    const { system, warnings } = await load('x');
    expect(system.some((text) => text.includes('SECRET'))).toBe(false);
    expect(warnings).toEqual(['AGENTS.md was skipped: it resolves to a path outside the workdir']);
  });

  it('skips an AGENTS.md that is not UTF-8, with a warning', async () => {
    await writeFile(join(workdir, 'AGENTS.md'), Buffer.from([0xff, 0xfe, 0xfd]));
    const { system, warnings } = await load('x');
    expect(system).toEqual([]);
    expect(warnings).toEqual(['AGENTS.md was skipped: it is not valid UTF-8 text']);
  });

  it('runs an explicit skill with substitutions and narrows tools to its lower-cased allowed-tools', async () => {
    await put('.claw/skills/review/SKILL.md', reviewSkill);
    const { system, selectedSkill, allowedTools } = await load('/review src/a.ts');
    const skillDir = join(workdir, '.claw', 'skills', 'review');
    expect(selectedSkill).toEqual({
      name: 'review',
      explicit: true,
      arguments: 'src/a.ts',
      dir: skillDir,
    });
    expect(allowedTools).toEqual(['read', 'bash']);
    const active = system[1] ?? '';
    expect(active).toContain('Allowed tools declared by skill: read, bash');
    expect(active.endsWith(`Review src/a.ts using ${skillDir}/checklist.md.`)).toBe(true);
    expect(system[0]).toContain('- review - Review a diff for bugs args=<path>');
  });

  it('does not narrow tools when the selected skill declares none', async () => {
    await put('.claw/skills/notes/SKILL.md', '---\ndescription: Write release notes\n---\nSteps');
    const { selectedSkill, allowedTools } = await load('write the release notes');
    expect(selectedSkill).toMatchObject({ name: 'notes', explicit: false });
    expect(selectedSkill?.arguments).toBe('write the release notes');
    expect(allowedTools).toBeUndefined();
  });

  it('selects no skill for an unknown explicit name and warns, while still listing the skills', async () => {
    await put('.claw/skills/review/SKILL.md', reviewSkill);
    const { system, selectedSkill, allowedTools, warnings } = await load(
      '$nope review the diff for bugs',
    );
    expect(selectedSkill).toBeUndefined();
    expect(allowedTools).toBeUndefined();
    expect(system).toHaveLength(1);
    expect(system[0]).toContain('Available project skills from .claw/skills.');
    expect(warnings).toEqual([
      'no skill named nope can be invoked; the run continues without a skill',
    ]);
  });

  it('skips a malformed SKILL.md with a warning instead of failing the run', async () => {
    await put('.claw/skills/Bad_Dir/SKILL.md', '---\nname: Not Valid\n---\nbody');
    const { system, warnings } = await load('x');
    expect(system).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('.claw/skills/Bad_Dir/SKILL.md was skipped');
  });

  it('warns and adds nothing when the workdir does not exist', async () => {
    const missing = join(base, 'missing');
    const loaded = await workspaceContext().load({ prompt: 'x', workdir: missing });
    expect(loaded.system).toEqual([]);
    expect(loaded.warnings[0]).toContain(`workdir ${missing} could not be resolved`);
  });
});
