import { globSegmentMatches } from './shell/glob-segment.js';

/**
 * A kind of file whose change needs a person's approval, and why.
 *
 * @example
 * const rule: ProtectedFileRule = { reason: 'lock files pin dependencies', matches: (segments) => false };
 */
export interface ProtectedFileRule {
  readonly reason: string;
  /** Tested with the path's segments relative to the workdir (`['.github', 'workflows', 'ci.yml']`). */
  readonly matches: (segments: readonly string[]) => boolean;
}

const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'bun.lockb',
  'bun.lock',
  'uv.lock',
  'poetry.lock',
  'pipfile.lock',
  'pdm.lock',
  'cargo.lock',
  'gemfile.lock',
  'composer.lock',
  'go.sum',
  'flake.lock',
]);

const PACKAGE_MANIFESTS = new Set([
  'package.json',
  'pyproject.toml',
  'pnpm-workspace.yaml',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
]);

const CI_FILES = new Set([
  '.travis.yml',
  'jenkinsfile',
  'azure-pipelines.yml',
  'bitbucket-pipelines.yml',
  '.drone.yml',
]);
const CI_DIRECTORIES = new Set(['.circleci', '.buildkite']);

// Words that mark a secret when they are a whole word of a path segment: `api_key.txt`,
// `secrets/`, `awsKey.json`, but not `monkey.ts` or `keyboard.ts`.
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'key',
  'keys',
  'credential',
  'credentials',
  'pem',
  'p12',
  'pfx',
]);
const SECRET_FILES = new Set([
  '.netrc',
  '.pgpass',
  '.pypirc',
  '.git-credentials',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  '.npmrc',
]);

/**
 * The words of a path segment: split at punctuation and at lower-to-upper case changes.
 *
 * @example
 * segmentWords('apiKey_v2.json'); // ['api', 'key', 'v2', 'json']
 */
export function segmentWords(segment: string): string[] {
  return segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

function isEnvFile(segment: string): boolean {
  return segment.toLowerCase().startsWith('.env');
}

/**
 * Whether a single path segment names something that may hold secrets: a `.env*` file, a
 * credentials file, or a segment with `secret`/`key` (and the like) as one of its words.
 *
 * @example
 * isSecretSegment('api_key.txt'); // true
 * isSecretSegment('monkey.ts'); // false
 */
export function isSecretSegment(segment: string): boolean {
  const lower = segment.toLowerCase();
  if (
    isEnvFile(lower) ||
    SECRET_FILES.has(lower) ||
    lower.startsWith('id_rsa') ||
    lower.startsWith('id_ed25519')
  ) {
    return true;
  }
  return segmentWords(segment).some((word) => SECRET_WORDS.has(word));
}

// Names a glob is tried against when deciding whether it could reach a secret.
const SECRET_SAMPLES = [
  '.env',
  '.env.local',
  'secrets',
  'secret.txt',
  'api_key',
  'keys',
  'id_rsa',
  '.npmrc',
  '.netrc',
  'credentials.json',
  'server.pem',
];

/**
 * Whether a glob segment could match a file that may hold secrets.
 *
 * @example
 * globMayMatchSecret('.e*'); // true
 * globMayMatchSecret('*.ts'); // false
 */
export function globMayMatchSecret(segment: string): boolean {
  return SECRET_SAMPLES.some((sample) => globSegmentMatches(segment, sample));
}

/**
 * Files whose change is worth a person's look, in the order they are checked.
 *
 * @example
 * PROTECTED_FILE_RULES.find((rule) => rule.matches(['.env']))?.reason;
 */
export const PROTECTED_FILE_RULES: readonly ProtectedFileRule[] = [
  {
    reason: '.env files hold secrets and settings',
    matches: (segments) => isEnvFile(segments.at(-1) ?? ''),
  },
  {
    reason: 'lock files pin the exact dependencies installed',
    matches: (segments) => LOCK_FILES.has((segments.at(-1) ?? '').toLowerCase()),
  },
  {
    reason: 'package manifests and package-manager settings decide what installs and runs',
    matches: (segments) => PACKAGE_MANIFESTS.has((segments.at(-1) ?? '').toLowerCase()),
  },
  {
    reason: 'CI configuration runs with the project’s credentials',
    matches: (segments) => {
      const lower = segments.map((segment) => segment.toLowerCase());
      const name = lower.at(-1) ?? '';
      return (
        (lower[0] === '.github' && (lower[1] === 'workflows' || lower[1] === 'actions')) ||
        name.startsWith('.gitlab-ci') ||
        CI_FILES.has(name) ||
        lower.some((segment) => CI_DIRECTORIES.has(segment))
      );
    },
  },
  {
    reason: 'the path looks like it holds secrets or keys',
    matches: (segments) => segments.some(isSecretSegment),
  },
];
