import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInWorkdir } from './path-guard.js';

// Reproduce a failure with FC_SEED=<seed> (printed in the error); FC_NUM_RUNS digs deeper locally.
const SEED = process.env.FC_SEED
  ? Number(process.env.FC_SEED)
  : Math.floor(Math.random() * 2 ** 31);
const NUM_RUNS = process.env.FC_NUM_RUNS ? Number(process.env.FC_NUM_RUNS) : 200;
const SECRET = 'TOP-SECRET';

/** Where a symlink lives: a directory inside the root, or `out` (the outside sibling). */
const LINK_HOMES = ['', 'a', 'a/b', 'out'] as const;
const LINK_NAMES = ['l0', 'l1', 'l2', 'l3'] as const;

/**
 * Symlink targets, written as templates so absolute ones name this run's dirs. Relative targets
 * mean different things from different homes, which is how chains, loops and dangling links arise.
 */
const LINK_TARGETS = [
  'a',
  'a/b',
  'a/f.txt',
  '.',
  '..',
  '../..',
  '.git',
  '.git/config',
  'gitdata',
  '.tc-state',
  'missing',
  'missing/deeper',
  'l0',
  'l1',
  'l2',
  'l3',
  '../s',
  '../s/secret',
  '../../s',
  '../s/missing/dir',
  '../s/l0',
  '../w2',
  '../w2/secret',
  '{root}',
  '{root}/a',
  '{root}/.git',
  '{out}',
  '{out}/secret',
  '{out}/nope',
  '{run}/w2',
] as const;

const COMPONENTS = [
  '..',
  '.',
  '',
  'a',
  'b',
  'f.txt',
  'l0',
  'l1',
  'l2',
  'l3',
  '.git',
  '.GIT',
  'config',
  'gitdata',
  '.tc-state',
  'new',
  's',
  'secret',
  'w',
  'w2',
] as const;

/** How the input path starts: relative, or absolute through this run's dirs (never the real `/`). */
const PREFIXES = ['', '', '{root}/', '{root}//', '{run}/', '{out}/', '{root}2/'] as const;

type GitMode = 'dir' | 'file' | 'none';

interface Scenario {
  gitMode: GitMode;
  links: Array<{ home: (typeof LINK_HOMES)[number]; name: string; target: string }>;
  inputs: string[];
}

const linkArb = fc.record({
  home: fc.constantFrom(...LINK_HOMES),
  name: fc.constantFrom(...LINK_NAMES),
  target: fc.constantFrom(...LINK_TARGETS),
});

const inputArb = fc
  .tuple(
    fc.constantFrom(...PREFIXES),
    fc.array(fc.constantFrom(...COMPONENTS), { minLength: 1, maxLength: 6 }),
    fc.boolean(),
  )
  .map(
    ([prefix, parts, trailingSlash]) => `${prefix}${parts.join('/')}${trailingSlash ? '/' : ''}`,
  );

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  gitMode: fc.constantFrom<GitMode>('dir', 'file', 'none'),
  links: fc.uniqueArray(linkArb, { maxLength: 6, selector: (l) => `${l.home}/${l.name}` }),
  inputs: fc.array(inputArb, { minLength: 1, maxLength: 4 }),
});

let base: string;
let runCount = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-guard-prop-')));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

interface World {
  run: string;
  root: string;
  out: string;
  fill(template: string): string;
}

async function buildWorld(scenario: Scenario): Promise<World> {
  runCount += 1;
  const run = path.join(base, `run-${runCount}`);
  const root = path.join(run, 'w');
  const out = path.join(run, 's');
  await mkdir(path.join(root, 'a', 'b'), { recursive: true });
  await mkdir(path.join(root, '.tc-state'), { recursive: true });
  await mkdir(out, { recursive: true });
  await writeFile(path.join(root, 'a', 'f.txt'), 'inside');
  await writeFile(path.join(out, 'secret'), SECRET);
  // A sibling whose name starts with the workdir's: catches string-prefix containment checks.
  await mkdir(path.join(run, 'w2'));
  await writeFile(path.join(run, 'w2', 'secret'), SECRET);
  if (scenario.gitMode === 'dir') {
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'config'), '[core]');
  }
  if (scenario.gitMode === 'file') {
    // A linked worktree: `.git` is a file naming the real git dir, here inside the workdir.
    await mkdir(path.join(root, 'gitdata'));
    await writeFile(path.join(root, 'gitdata', 'config'), '[core]');
    await writeFile(path.join(root, '.git'), 'gitdir: gitdata\n');
  }
  const fill = (template: string) =>
    template.replaceAll('{root}', root).replaceAll('{out}', out).replaceAll('{run}', run);
  for (const link of scenario.links) {
    const home = link.home === 'out' ? out : path.join(root, link.home);
    await symlink(fill(link.target), path.join(home, link.name)).catch(() => undefined);
  }
  return { run, root, out, fill };
}

/** Everything outside the workdir, with file contents and link targets, to prove nothing changed. */
async function snapshotOutside(world: World): Promise<string[]> {
  const lines: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const entry of (await readdir(dir)).sort()) {
      const full = path.join(dir, entry);
      if (full === world.root) continue;
      const stats = await lstat(full);
      if (stats.isSymbolicLink()) lines.push(`${full} -> ${await readlink(full)}`);
      else if (stats.isDirectory()) {
        lines.push(`${full}/`);
        await walk(full);
      } else lines.push(`${full} = ${await readFile(full, 'utf8')}`);
    }
  }
  await walk(world.run);
  return lines;
}

/** Put the reproduction hint first, keeping fast-check's counterexample report below it. */
function withSeed(error: unknown): Error {
  const report = error instanceof Error ? error.message : String(error);
  return new Error(`reproduce with FC_SEED=${SEED}\n${report}`, { cause: error });
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Independent oracle: where an fs operation on `p` would really land. realpath when it exists;
 * otherwise follow a dangling symlink at `p` by hand, or canonicalise the parent and re-append.
 */
async function landingPath(p: string, hops = 0): Promise<string> {
  if (hops > 64) throw new Error(`oracle: too many symlink hops at ${p}`);
  try {
    return await realpath(p);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT' && errnoCode(error) !== 'ENOTDIR') throw error;
  }
  const stats = await lstat(p).catch(() => undefined);
  if (stats?.isSymbolicLink()) {
    return landingPath(path.resolve(path.dirname(p), await readlink(p)), hops + 1);
  }
  const parent = path.dirname(p);
  if (parent === p) return p;
  return path.join(await landingPath(parent, hops), path.basename(p));
}

/** Containment by path component, computed without the guard's own helper. */
function componentsInside(root: string, candidate: string): boolean {
  const r = root.split(path.sep).filter(Boolean);
  const c = candidate.split(path.sep).filter(Boolean);
  return c.length >= r.length && r.every((part, i) => c[i] === part);
}

function hasGitComponent(root: string, candidate: string): boolean {
  return candidate
    .split(path.sep)
    .slice(root.split(path.sep).length)
    .some((part) => part.toLowerCase() === '.git');
}

async function checkInput(world: World, input: string, gitMode: GitMode): Promise<void> {
  const realRoot = await realpath(world.root);
  const state = path.join(realRoot, '.tc-state');
  for (const access of ['read', 'write'] as const) {
    const result = await resolveInWorkdir(world.root, input, {
      access,
      protectedPaths: ['.tc-state'],
    });
    if (!result.ok) continue;
    const landing = await landingPath(result.path);
    const context = `${access} ${JSON.stringify(input)} -> ${result.path} (lands at ${landing})`;
    expect(componentsInside(realRoot, landing), context).toBe(true);
    if (access === 'read') continue;
    expect(hasGitComponent(realRoot, landing), context).toBe(false);
    expect(componentsInside(state, landing), context).toBe(false);
    if (gitMode === 'file') {
      expect(componentsInside(path.join(realRoot, 'gitdata'), landing), context).toBe(false);
    }
    // Do what the write tool does; only the absence of effects outside the workdir matters here,
    // so failures such as EISDIR or ENOTDIR are fine.
    try {
      await mkdir(path.dirname(result.path), { recursive: true });
      await writeFile(result.path, 'probe');
    } catch {
      // See above.
    }
  }
}

describe('resolveInWorkdir properties (fast-check)', () => {
  it('never lets a path land outside the workdir, nor a write land in .git or the state dir', async () => {
    try {
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          const world = await buildWorld(scenario);
          try {
            const before = await snapshotOutside(world);
            for (const input of scenario.inputs) {
              await checkInput(world, world.fill(input), scenario.gitMode);
            }
            expect(await snapshotOutside(world)).toEqual(before);
            expect(await readFile(path.join(world.out, 'secret'), 'utf8')).toBe(SECRET);
          } finally {
            await rm(world.run, { recursive: true, force: true });
          }
        }),
        { seed: SEED, numRuns: NUM_RUNS },
      );
    } catch (error) {
      throw withSeed(error);
    }
  }, 120_000);

  it('accepts plain paths inside the workdir for read and write', async () => {
    const plain = fc
      .array(fc.constantFrom('a', 'b', 'new', 'f.txt', 'x y', 'ü'), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('/'));
    try {
      await fc.assert(
        fc.asyncProperty(plain, fc.boolean(), async (input, absolute) => {
          const world = await buildWorld({ gitMode: 'dir', links: [], inputs: [] });
          try {
            const given = absolute ? path.join(world.root, input) : input;
            for (const access of ['read', 'write'] as const) {
              const result = await resolveInWorkdir(world.root, given, { access });
              expect(result, `${access} ${given}`).toMatchObject({
                ok: true,
                path: path.join(await realpath(world.root), input),
                relative: input,
              });
            }
          } finally {
            await rm(world.run, { recursive: true, force: true });
          }
        }),
        { seed: SEED, numRuns: Math.min(NUM_RUNS, 50) },
      );
    } catch (error) {
      throw withSeed(error);
    }
  }, 60_000);
});
