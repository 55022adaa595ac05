import { posix, win32 } from 'node:path';

/**
 * A workdir as a chat shows it: its last two segments, after `…/` when there is more before them,
 * so a card says which project without printing the server's directory layout.
 *
 * @example
 * workdirLabel('/srv/teams/alice/tiny-claw'); // '…/alice/tiny-claw'
 * workdirLabel('/srv/app'); // '/srv/app'
 */
export function workdirLabel(workdir: string): string {
  const path = /^[A-Za-z]:[\\/]/.test(workdir) ? win32 : posix;
  const segments = workdir.split(path.sep === '\\' ? /[\\/]+/ : /\/+/).filter((s) => s !== '');
  if (segments.length <= 2) return workdir;
  return `…/${segments.slice(-2).join('/')}`;
}
