import { userInfo } from 'node:os';

/**
 * Who is deciding or asking, as approval records name a CLI user: `cli:<os user>`.
 *
 * @example
 * cliActor(); // 'cli:alice'
 */
export function cliActor(): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (some containers): the login variables are the next best witness.
    name = process.env.USER ?? process.env.LOGNAME;
  }
  return `cli:${name || 'unknown'}`;
}
