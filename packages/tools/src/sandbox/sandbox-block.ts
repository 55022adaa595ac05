import path from 'node:path';

/**
 * Why a sandboxed command most likely failed because of the sandbox: it wrote outside the
 * writable places (`read_only`), reached for a hidden path (`hidden_path`), tried to change git's
 * configuration, hooks or repository layout (`git_metadata`), or used the network while it is off
 * (`network`) — which includes the unix sockets of other programs.
 *
 * @example
 * const block: SandboxBlock = 'network';
 */
export type SandboxBlock = 'read_only' | 'hidden_path' | 'git_metadata' | 'network';

/** What the usual tools print when a name cannot be resolved or no route exists. */
const NETWORK_MARKERS =
  /could not resolve host|temporary failure in name resolution|name or service not known|no address associated with hostname|network is unreachable|getaddrinfo (?:enotfound|eai_again)|\beai_again\b|nodename nor servname/i;

/**
 * With the network off, creating a unix socket fails with EPERM (the seccomp filter). Tools say
 * so as "Operation not permitted" or EPERM, on a line about a socket or a connection, or in a
 * command that names one.
 */
const NOT_PERMITTED = /operation not permitted|\beperm\b/i;
const ABOUT_A_SOCKET = /socket|\bunix\b|\baf_(?:unix|local)\b|\.sock\b|\bconnect/i;
/** curl hides the error behind its own words: `curl --unix-socket …` → "Couldn't connect to server". */
const CURL_UNIX_SOCKET = /--unix-socket\b/;
const CURL_CANNOT_CONNECT = /couldn't connect to server/i;

function unixSocketRefused(output: string, command: string): boolean {
  if (CURL_UNIX_SOCKET.test(command) && CURL_CANNOT_CONNECT.test(output)) return true;
  const commandNamesOne = ABOUT_A_SOCKET.test(command);
  return output
    .split('\n')
    .some((line) => NOT_PERMITTED.test(line) && (commandNamesOne || ABOUT_A_SOCKET.test(line)));
}

const READ_ONLY_MARKERS = /read-only file system|\berofs\b/i;

const MISSING_OR_DENIED = /no such file or directory|permission denied|\benoent\b|\beacces\b/i;

/** How a write to a pinned mount point (`.git`, `.git/config`) or git's own refusal reads. */
const GIT_REFUSAL =
  /device or resource busy|\bebusy\b|could not (?:lock|write) config file|cannot (?:mkdir|copy|create)/i;

/** A character that can be part of a file name (so a match next to it is only part of one). */
const NAME_CHAR = /[\w.~-]/;

/** `hidden` itself or a path under it, as whole components, appears in `text`. */
function mentions(text: string, hidden: string): boolean {
  let from = text.indexOf(hidden);
  while (from !== -1) {
    const before = from === 0 ? undefined : text[from - 1];
    const next = text[from + hidden.length];
    const starts = before === undefined || hidden.startsWith('/') || !NAME_CHAR.test(before);
    const ends = next === undefined || next === path.sep || !NAME_CHAR.test(next);
    if (starts && ends) return true;
    from = text.indexOf(hidden, from + 1);
  }
  return false;
}

/**
 * Guess whether a failed sandboxed command failed because of the sandbox, from its output and
 * its own text: an error about a hidden path (named in either), about git metadata the sandbox
 * keeps read-only (a busy mount point, a configuration git could not write), a read-only file
 * system, or,
 * while the network is off, a name-resolution / unreachable-network error or a unix socket it was
 * not permitted to create. Undefined otherwise.
 * Used only to add advice; the command's output is shown as it was.
 *
 * @example
 * sandboxBlockOf('curl: (6) Could not resolve host: example.com', { command: 'curl example.com', hidden: [], network: false });
 * // 'network'
 */
export function sandboxBlockOf(
  output: string,
  context: {
    command: string;
    hidden: readonly string[];
    network: boolean;
    /** Git metadata the sandbox keeps read-only (`.git`, its configuration and hooks, …). */
    gitProtected?: readonly string[];
  },
): SandboxBlock | undefined {
  const text = `${output}\n${context.command}`;
  if (MISSING_OR_DENIED.test(output) || READ_ONLY_MARKERS.test(output)) {
    if (context.hidden.some((hidden) => mentions(text, hidden))) return 'hidden_path';
  }
  if (
    (MISSING_OR_DENIED.test(output) ||
      READ_ONLY_MARKERS.test(output) ||
      GIT_REFUSAL.test(output)) &&
    (context.gitProtected ?? []).some((protectedPath) => mentions(text, protectedPath))
  )
    return 'git_metadata';
  if (READ_ONLY_MARKERS.test(output)) return 'read_only';
  if (!context.network && NETWORK_MARKERS.test(output)) return 'network';
  if (!context.network && unixSocketRefused(output, context.command)) return 'network';
  return undefined;
}
