/**
 * What the sandbox says to people (status reasons, configuration errors, the fallback warning),
 * kept in one place for a future locale. The settings named are tiny-claw's; an embedder's
 * equivalent is the `sandbox` option.
 *
 * @example
 * sandboxText.works('0.8.0', '/usr/bin/bwrap'); // 'bubblewrap 0.8.0 works here (/usr/bin/bwrap)'
 */
export const sandboxText = {
  works: (version: string, path: string): string => `bubblewrap ${version} works here (${path})`,
  networkOn: 'network allowed (TINY_CLAW_SANDBOX_NETWORK=on)',
  turnedOff: 'TINY_CLAW_SANDBOX=off',
  notLinux: (platform: string): string =>
    `the bubblewrap sandbox needs Linux and this is ${platform}`,
  bwrapNotFound: 'bwrap not found on PATH (install bubblewrap)',
  bwrapMissingAt: (path: string): string => `no executable bwrap at ${path}`,
  bwrapBroken: (path: string, why: string): string => `${path} --version failed: ${why}`,
  bwrapRefused: (path: string, why: string): string =>
    `bubblewrap at ${path} cannot create its namespaces here: ${why}`,
  pdeathsig: 'commands die with tiny-claw (setpriv --pdeathsig)',
  noSetpriv: 'setpriv not found, so a command may outlive tiny-claw if it is killed',
  bwrapRequested: (reason: string): string =>
    `the bwrap sandbox was requested but cannot be used: ${reason}. Install bubblewrap and allow unprivileged user namespaces, or set TINY_CLAW_SANDBOX=auto (or off) — sandbox: 'auto' | 'off' in code.`,
  fallback: (reason: string): string =>
    `bash commands run without a sandbox: ${reason}. Install bubblewrap to confine them, or set TINY_CLAW_SANDBOX=off to say this is intended.`,
} as const;
