import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

  it('reads real YAML frontmatter: folded descriptions, literal blocks, quoted values', async () => {
    await put(
      skillFile('review'),
      [
        '---',
        'name: review',
        'description: >-',
        '  Review a pull request',
        '  for style and bugs.',
        'when_to_use: "asked for a review: any kind"',
        'allowed-tools: [Read, bash]',
        'argument-hint: |',
        '  <path>',
        'metadata:',
        '  version: 2',
        '---',
        'Body',
      ].join('\n'),
    );
    const { skills, warnings } = await discoverSkills(workdir);
    expect(warnings).toEqual([]);
    expect(skills[0]).toMatchObject({
      name: 'review',
      description: 'Review a pull request for style and bugs.',
      whenToUse: 'asked for a review: any kind',
      argumentHint: '<path>',
      allowedTools: ['read', 'bash'],
      body: 'Body',
    });
  });

  it('skips a SKILL.md whose frontmatter is not valid YAML, naming the file and line', async () => {
    await put(skillFile('broken'), '---\nname: broken\ndescription: Use when: asked\n---\nbody');
    await put(skillFile('list-root'), '---\n- not\n- a mapping\n---\nbody');
    await put(skillFile('tagged'), '---\nname: tagged\nrun: !exec whoami\n---\nbody');
    await put(skillFile('good'), '---\nname: good\n---\nbody');
    const { skills, warnings } = await discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['good']);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^${skillFile('broken')} was skipped: its frontmatter \\(line 3\\) cannot be read: it is not valid YAML \\(.+\\); quote a value that contains ": " or " #"$`,
      ),
    );
    expect(warnings[1]).toBe(
      `${skillFile('list-root')} was skipped: its frontmatter (line 2) cannot be read: it must be a mapping of "key: value" lines, not a list or a single value`,
    );
    expect(warnings[2]).toBe(
      `${skillFile('tagged')} was skipped: its frontmatter (line 3) cannot be read: the tag !exec is not allowed; remove it (only plain text, lists and mappings are read)`,
    );
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

describe('discoverSkills loads the YAML parser only for frontmatter', () => {
  afterEach(() => {
    vi.doUnmock('yaml');
    vi.resetModules();
  });

  /** Fresh copies of the skill modules, with `yaml` wrapped so every real import is counted. */
  async function freshModules() {
    vi.resetModules();
    const imports = { count: 0 };
    vi.doMock('yaml', async (importOriginal) => {
      imports.count += 1;
      return importOriginal();
    });
    const discovery = await import('./skill-discovery.js');
    const loader = await import('./yaml-loader.js');
    return { imports, discoverSkills: discovery.discoverSkills, loader };
  }

  it('never imports yaml for a workdir without skills or without frontmatter', async () => {
    const fresh = await freshModules();
    expect(await fresh.discoverSkills(workdir)).toEqual({ skills: [], warnings: [] });
    await put(skillFile('plain'), 'A skill with no frontmatter');
    await put(skillFile('open'), '---\nnever closed');
    const { skills } = await fresh.discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['open', 'plain']);
    expect(fresh.imports.count).toBe(0);
    expect(fresh.loader.yamlRequested()).toBe(false);
  });

  it('imports yaml once when skills have frontmatter', async () => {
    const fresh = await freshModules();
    await put(skillFile('one'), '---\nname: one\n---\nbody');
    await put(skillFile('two'), '---\nname: two\n---\nbody');
    const { skills } = await fresh.discoverSkills(workdir);
    expect(skills.map((s) => s.name)).toEqual(['one', 'two']);
    await fresh.discoverSkills(workdir);
    expect(fresh.imports.count).toBe(1);
    expect(fresh.loader.yamlRequested()).toBe(true);
  });
});
