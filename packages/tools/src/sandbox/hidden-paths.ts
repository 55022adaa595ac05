import os from 'node:os';
import path from 'node:path';

/**
 * Credential locations under a home directory that sandboxed commands never see: SSH keys,
 * cloud and registry credentials, git and GitHub tokens, GnuPG keys, kube configs.
 *
 * @example
 * HOME_CREDENTIAL_PATHS.includes('.ssh'); // true
 */
export const HOME_CREDENTIAL_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.docker/config.json',
  '.git-credentials',
  '.gnupg',
  '.kube',
  '.netrc',
  '.npmrc',
  '.pypirc',
];

/**
 * System files with secrets that some users (root, in particular) could otherwise read.
 *
 * @example
 * SYSTEM_SECRET_PATHS; // ['/etc/shadow', '/etc/gshadow']
 */
export const SYSTEM_SECRET_PATHS: readonly string[] = ['/etc/shadow', '/etc/gshadow'];

/**
 * Every path hidden by default: the credential locations under `HOME` (from `env`) and under the
 * account's home directory when it differs, and the system secret files.
 *
 * @example
 * defaultHiddenPaths({ HOME: '/home/me' }); // ['/home/me/.ssh', …, '/etc/shadow', '/etc/gshadow']
 */
export function defaultHiddenPaths(env: NodeJS.ProcessEnv): string[] {
  const homes = new Set<string>();
  if (env.HOME && path.isAbsolute(env.HOME)) homes.add(path.resolve(env.HOME));
  try {
    homes.add(os.homedir());
  } catch {
    // No home directory for this account: only HOME counts.
  }
  const underHomes = [...homes].flatMap((home) =>
    HOME_CREDENTIAL_PATHS.map((relative) => path.join(home, relative)),
  );
  return [...underHomes, ...SYSTEM_SECRET_PATHS];
}
