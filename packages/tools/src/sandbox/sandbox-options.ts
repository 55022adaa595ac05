import { z } from 'zod';

/**
 * How `bash` commands are confined: `bwrap` (bubblewrap namespaces), `off` (own process group
 * only), or `auto` (`bwrap` when bubblewrap works on this machine, else `off`).
 *
 * @example
 * SANDBOX_MODES; // ['auto', 'bwrap', 'off']
 */
export const SANDBOX_MODES = ['auto', 'bwrap', 'off'] as const;

/**
 * One of {@link SANDBOX_MODES}.
 *
 * @example
 * const mode: SandboxMode = 'auto';
 */
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/**
 * The sandbox of the `bash` tool, in full.
 *
 * @example
 * const sandbox: SandboxOptions = { mode: 'bwrap', network: false, hide: ['/home/me/.kube'] };
 */
export interface SandboxOptions {
  /** Default `auto`. */
  mode?: SandboxMode;
  /** Whether sandboxed commands may use the network (default false: no network at all). */
  network?: boolean;
  /**
   * Absolute paths hidden from sandboxed commands (an empty directory, or an unreadable file,
   * takes their place), beyond the built-in credential locations (`~/.ssh`, `~/.aws`, …).
   */
  hide?: readonly string[];
  /** The bubblewrap binary; default `/usr/bin/bwrap` when it exists, else `bwrap` on `PATH`. */
  bwrapPath?: string;
}

/**
 * What a sandbox setting amounts to on this machine: the mode asked for, the one in force, and
 * why, in words for people (`health`, a run banner).
 *
 * @example
 * const status: SandboxStatus = { mode: 'auto', active: 'off', reason: 'bwrap not found on PATH' };
 */
export interface SandboxStatus {
  mode: SandboxMode;
  active: 'bwrap' | 'off';
  reason: string;
}

/** A {@link SandboxOptions} with every default applied. */
export interface ResolvedSandboxOptions {
  mode: SandboxMode;
  network: boolean;
  hide: readonly string[];
  bwrapPath: string | undefined;
}

/**
 * The zod schema of the `sandbox` option: a mode, or an options object.
 *
 * @example
 * sandboxOptionSchema.parse({ mode: 'bwrap', network: true });
 */
export const sandboxOptionSchema = z.union(
  [
    z.enum(SANDBOX_MODES),
    z.strictObject({
      mode: z.enum(SANDBOX_MODES).optional(),
      network: z.boolean().optional(),
      hide: z
        .array(
          z.string().refine((value) => value.startsWith('/'), {
            error: 'hide paths must be absolute',
          }),
        )
        .optional(),
      bwrapPath: z.string().min(1).optional(),
    }),
  ],
  {
    error:
      'sandbox must be "auto", "bwrap" or "off", or { mode?, network?: boolean, hide?: string[] }',
  },
);

/**
 * Apply the defaults: mode `auto`, no network, nothing extra hidden.
 *
 * @example
 * normalizeSandboxOptions('off'); // { mode: 'off', network: false, hide: [], bwrapPath: undefined }
 */
export function normalizeSandboxOptions(
  option: SandboxMode | SandboxOptions | undefined,
): ResolvedSandboxOptions {
  const options = typeof option === 'string' ? { mode: option } : (option ?? {});
  return {
    mode: options.mode ?? 'auto',
    network: options.network ?? false,
    hide: options.hide ?? [],
    bwrapPath: options.bwrapPath,
  };
}
