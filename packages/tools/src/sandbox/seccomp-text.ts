/**
 * What the sandbox says about its unix-socket filter in status reasons and configuration errors,
 * kept in one place for a future locale like the rest of the sandbox's texts.
 *
 * @example
 * seccompText.reachable(seccompText.noFilterFor('riscv64'));
 * // 'unix sockets of the host stay reachable: no unix-socket filter for riscv64 (only x64 and arm64 have one)'
 */
export const seccompText = {
  reachable: (why: string): string => `unix sockets of the host stay reachable: ${why}`,
  noFilterFor: (arch: string): string =>
    `no unix-socket filter for ${arch} (only x64 and arm64 have one)`,
  kernelWithout: 'this kernel has no seccomp',
  refused: (why: string): string => `bubblewrap did not load the unix-socket filter: ${why}`,
} as const;
