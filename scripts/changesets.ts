import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A workspace package as changesets sees it: its name and whether it is published. */
export interface WorkspacePackage {
  readonly name: string;
  readonly private: boolean;
}

/** What is wrong with one changeset file, in words. */
export interface ChangesetProblem {
  readonly file: string;
  readonly problem: string;
}

const BUMPS = new Set(['patch', 'minor', 'major']);

/** The packages of `apps/*` and `packages/*` under `root`. */
export function workspacePackages(root: string): WorkspacePackage[] {
  return ['apps', 'packages'].flatMap((group) =>
    readdirSync(join(root, group), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        try {
          const json = JSON.parse(
            readFileSync(join(root, group, entry.name, 'package.json'), 'utf8'),
          ) as { name?: string; private?: boolean };
          return json.name ? [{ name: json.name, private: json.private === true }] : [];
        } catch {
          return [];
        }
      }),
  );
}

/**
 * Problems of the changeset `text` (file `file`): a front matter that does not parse, a package
 * the workspace does not have, a bump other than patch, minor or major, or — which makes
 * `changeset version` fail at release time — private and published packages in one changeset.
 */
export function changesetProblems(
  file: string,
  text: string,
  packages: readonly WorkspacePackage[],
): ChangesetProblem[] {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) return [{ file, problem: 'no front matter (--- … ---) naming the packages' }];
  const problems: ChangesetProblem[] = [];
  const named: WorkspacePackage[] = [];
  for (const line of (match[1] ?? '').split('\n').filter((entry) => entry.trim() !== '')) {
    const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(\w+)\s*$/.exec(line);
    if (!entry) {
      problems.push({ file, problem: `cannot read ${JSON.stringify(line)}` });
      continue;
    }
    const [, name = '', bump = ''] = entry;
    const known = packages.find((candidate) => candidate.name === name);
    if (!known) problems.push({ file, problem: `no workspace package is named ${name}` });
    else named.push(known);
    if (!BUMPS.has(bump))
      problems.push({ file, problem: `${name}: "${bump}" is not patch, minor or major` });
  }
  const privates = named.filter((entry) => entry.private).map((entry) => entry.name);
  const published = named.filter((entry) => !entry.private).map((entry) => entry.name);
  if (privates.length > 0 && published.length > 0) {
    problems.push({
      file,
      problem: `mixes private (${privates.join(', ')}) and published (${published.join(', ')}) packages, which changesets refuses: split it in two`,
    });
  }
  return problems;
}
