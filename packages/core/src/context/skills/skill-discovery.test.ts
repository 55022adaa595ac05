import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from './skill-discovery.js';

let base: string;
let workdir: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'tiny-claw-skills-')));
  workdir = join(base, 'repo');
  await mkdir(workdir);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function put(relative: string, content: string | Buffer): Promise<void> {
  const file = join(workdir, relative);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}

const skillFile = (dir: string) => `.claw/skills/${dir}/SKILL.md`;

describe('discoverSkills', () => {
  it('finds nothing, silently, without a .claw/skills directory', async () => {
    expect(await discoverSkills(workdir)).toEqual({ skills: [], warnings: [] });
  });

  it('reads every direct subdirectory with a SKILL.md, sorted by directory name', async () => {
    await put(skillFile('zeta'), '---\ndescription: last\n---\nZ body');
    await put(
      skillFile('alpha'),
      '---\nname: alpha\nallowed-tools: [Read, BASH]\n---\n\n  A body  \n',
    );
    await put('.claw/skills/no-skill-file/README.md', 'not a skill');
    await put('.claw/skills/nested/deeper/SKILL.md', 'too deep');
    await put('.claw/skills/loose-file.md', 'not a directory');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(warnings).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(['alpha', 'zeta']);
    expect(skills[0]).toMatchObject({
      body: 'A body',
      allowedTools: ['read', 'bash'],
      dir: join(workdir, '.claw', 'skills', 'alpha'),
      userInvocable: true,
      disableModelInvocation: false,
      truncated: false,
    });
    expect(skills[1]).toMatchObject({ name: 'zeta', description: 'last', allowedTools: [] });
  });

  it('reads every field in both spellings', async () => {
    await put(
      skillFile('full'),
      [
        '---',
        'name: full',
        'description: "Full skill"',
        'when_to_use: when testing',
        'argument-hint: <path>',
        'allowed_tools: read, edit',
        'disable-model-invocation: yes',
        'user_invocable: off',
        'paths:',
        '  - docs/',
        '  - src/',
        'triggers: [full test, "check"]',
        '---',
        'Body',
      ].join('\n'),
    );
    const { skills } = await discoverSkills(workdir);
    expect(skills[0]).toMatchObject({
      name: 'full',
      description: 'Full skill',
      whenToUse: 'when testing',
      argumentHint: '<path>',
      allowedTools: ['read', 'edit'],
      disableModelInvocation: true,
      userInvocable: false,
      paths: ['docs/', 'src/'],
      triggers: ['full test', 'check'],
    });
  });

  it('uses the frontmatter name when valid, else the directory name when valid, else skips', async () => {
    await put(skillFile('dir-name'), '---\nname: Bad_Name\n---\nuses the directory name');
    await put(
      skillFile('other-dir'),
      '---\nname: from-frontmatter\n---\nuses the frontmatter name',
    );
    await put(skillFile('Bad_Dir'), '---\nname: Also Bad\n---\nskipped');
    await put(skillFile('9lives'), 'no frontmatter, directory name starts with a digit');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['dir-name', 'from-frontmatter']);
    expect(warnings).toHaveLength(3);
    expect(warnings.join('\n')).toContain(`${skillFile('Bad_Dir')} was skipped`);
    expect(warnings.join('\n')).toContain(`${skillFile('9lives')} was skipped`);
    expect(warnings.join('\n')).toContain('the directory name dir-name is used instead');
  });

  it('keeps the first of two skills with the same name, in directory order', async () => {
    await put(skillFile('a-first'), '---\nname: review\ndescription: first\n---\n');
    await put(skillFile('b-second'), '---\nname: review\ndescription: second\n---\n');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills).toHaveLength(1);
    expect(skills[0]?.description).toBe('first');
    expect(warnings).toEqual([
      `${skillFile('b-second')} was skipped: a skill named review is already defined by ${skillFile('a-first')}`,
    ]);
  });

  it('skips a malformed SKILL.md with a warning and keeps the others', async () => {
    await put(skillFile('binary'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x00, 0x80]));
    await mkdir(join(workdir, skillFile('dir-instead')), { recursive: true });
    await put(skillFile('good'), 'Plain body');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['good']);
    expect(warnings).toEqual([
      `${skillFile('binary')} was skipped: it is not valid UTF-8 text`,
      `${skillFile('dir-instead')} was skipped: it is not a regular file`,
    ]);
  });

  it('keeps a skill whose frontmatter is not closed, using the whole file as body, with a warning', async () => {
    await put(skillFile('open'), '---\nname: other\nBody');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills[0]).toMatchObject({ name: 'open', body: '---\nname: other\nBody' });
    expect(warnings[0]).toContain('never closed');
  });

  it('refuses a symlinked SKILL.md that escapes the workdir', async () => {
    await writeFile(join(base, 'outside.md'), '---\nname: evil\n---\nexfiltrate');
    await mkdir(join(workdir, '.claw/skills/evil'), { recursive: true });
    await symlink(join(base, 'outside.md'), join(workdir, skillFile('evil')));
    await put(skillFile('fine'), 'ok');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['fine']);
    expect(warnings).toEqual([
      `${skillFile('evil')} was skipped: it resolves to a path outside the workdir`,
    ]);
  });

  it('refuses a symlinked skill directory or skills root that escapes the workdir', async () => {
    await mkdir(join(base, 'elsewhere/escaped'), { recursive: true });
    await writeFile(join(base, 'elsewhere/escaped/SKILL.md'), 'outside');
    await mkdir(join(workdir, '.claw/skills'), { recursive: true });
    await symlink(join(base, 'elsewhere/escaped'), join(workdir, '.claw/skills/escaped'));
    const viaDir = await discoverSkills(workdir);
    expect(viaDir.skills).toEqual([]);
    expect(viaDir.warnings[0]).toContain('outside the workdir');

    await rm(join(workdir, '.claw'), { recursive: true });
    await mkdir(join(workdir, '.claw'));
    await symlink(join(base, 'elsewhere'), join(workdir, '.claw/skills'));
    const viaRoot = await discoverSkills(workdir);
    expect(viaRoot.skills).toEqual([]);
    expect(viaRoot.warnings).toEqual([
      '.claw/skills was skipped: it resolves to a path outside the workdir',
    ]);
  });

  it('follows a symlinked skill directory that stays inside the workdir', async () => {
    await put('shared/helper/SKILL.md', '---\nname: helper\n---\nbody');
    await mkdir(join(workdir, '.claw/skills'), { recursive: true });
    await symlink(join(workdir, 'shared/helper'), join(workdir, '.claw/skills/helper'));
    const { skills, warnings } = await discoverSkills(workdir);
    expect(warnings).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(['helper']);
  });

  it('cuts SKILL.md at 16,000 characters before parsing and marks it truncated', async () => {
    // The closing --- sits past the cut, so the cut document has no frontmatter.
    await put(skillFile('long'), `---\nname: other\n${'x'.repeat(16_100)}\n---\nbody`);
    await put(skillFile('short'), `${'é'.repeat(16_000)}`);
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills[0]).toMatchObject({ name: 'long', truncated: true });
    expect(skills[0]?.body).toHaveLength(16_000);
    expect(skills[1]).toMatchObject({ name: 'short', truncated: false });
    expect(warnings.some((w) => w.includes('longer than 16000 characters'))).toBe(true);
  });
});
