import { statSync } from 'node:fs';
import path from 'node:path';
import { ConfigurationError, describeZodError, type Tool } from '@tiny-claw/core';
import { z } from 'zod';
import { createBashTool } from './bash/index.js';
import { createEditTool } from './edit/index.js';
import { ReadLedger } from './file-state/read-ledger.js';
import { createReadTool } from './read/index.js';
import {
  normalizeSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
  type SandboxStatus,
  sandboxOptionSchema,
} from './sandbox/sandbox-options.js';
import { resolveSandbox } from './sandbox/sandbox-status.js';
import { createWriteTool } from './write/index.js';

/**
 * The workspace tools, in the order {@link workspaceTools} returns them.
 *
 * @example
 * WORKSPACE_TOOL_NAMES; // ['read', 'write', 'edit', 'bash']
 */
export const WORKSPACE_TOOL_NAMES = ['read', 'write', 'edit', 'bash'] as const;

/**
 * One of {@link WORKSPACE_TOOL_NAMES}.
 *
 * @example
 * const name: WorkspaceToolName = 'edit';
 */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/**
 * Options of {@link workspaceTools}.
 *
 * @example
 * const options: WorkspaceToolsOptions = { workdir: '/repo', enabled: ['read', 'bash'] };
 */
export interface WorkspaceToolsOptions {
  /** The directory the tools work in; resolved to an absolute path once, and it must exist. */
  workdir: string;
  /** Which tools to return (default all four); each name at most once. */
  enabled?: readonly WorkspaceToolName[];
  /**
   * Paths (absolute, or relative to the workdir) the tools may never write and bash may not run
   * in, even before they exist — typically the agent's state directory. `.git` is always
   * protected.
   */
  protectedPaths?: readonly string[];
  /**
   * How `bash` commands are confined (default `'auto'`): `'bwrap'` runs each in bubblewrap
   * (everything read-only but the workdir and a private /tmp, credentials and `protectedPaths`
   * hidden, no network, nothing outliving the call); `'off'` runs them unconfined in their own
   * process group; `'auto'` is `'bwrap'` where bubblewrap works, else `'off'`. The object form
   * adds `network: true` and more paths to `hide`. `'bwrap'` that cannot work here is an error
   * rather than a silent downgrade; `sandboxStatus()` says what a setting amounts to.
   */
  sandbox?: SandboxMode | SandboxOptions;
  /**
   * Called once when `'auto'` finds no usable bubblewrap (default: one process warning); a front
   * end that shows `sandboxStatus()` itself can pass a no-op.
   */
  onSandboxFallback?: (status: SandboxStatus) => void;
}

const USAGE =
  "pass { workdir: an existing directory, enabled?: ['read', 'write', 'edit', 'bash'], protectedPaths?: string[], sandbox?: 'auto' | 'bwrap' | 'off' }, " +
  'for example workspaceTools({ workdir: process.cwd() })';

// Checked at runtime too: JavaScript callers and config files bypass the types.
const optionsSchema = z.strictObject({
  workdir: z
    .string({ error: 'workdir is required and must be a string' })
    .refine((value) => value.trim() !== '', { error: 'workdir is empty' }),
  enabled: z.array(z.string()).optional(),
  protectedPaths: z.array(z.string()).optional(),
  sandbox: sandboxOptionSchema.optional(),
  onSandboxFallback: z
    .custom<(status: SandboxStatus) => void>((value) => typeof value === 'function', {
      error: 'onSandboxFallback must be a function',
    })
    .optional(),
});

function configurationError(message: string): ConfigurationError {
  return new ConfigurationError(`workspaceTools: ${message}`);
}

function enabledNames(enabled: readonly string[] | undefined): WorkspaceToolName[] {
  if (enabled === undefined) return [...WORKSPACE_TOOL_NAMES];
  const known = new Set<string>(WORKSPACE_TOOL_NAMES);
  const unknown = enabled.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw configurationError(
      `enabled names ${unknown.map((name) => JSON.stringify(name)).join(', ')}, which ${unknown.length === 1 ? 'is not a workspace tool' : 'are not workspace tools'}; available: ${WORKSPACE_TOOL_NAMES.join(', ')}`,
    );
  }
  const repeated = enabled.filter((name, index) => enabled.indexOf(name) !== index);
  if (repeated.length > 0) {
    throw configurationError(
      `enabled lists ${[...new Set(repeated)].join(', ')} more than once; name each tool once`,
    );
  }
  // Keep the documented order whatever order the caller listed them in.
  return WORKSPACE_TOOL_NAMES.filter((name) => enabled.includes(name));
}

function resolveWorkdir(workdir: string): string {
  let absolute: string;
  try {
    absolute = path.resolve(workdir);
  } catch (error) {
    // path.resolve reads process.cwd(), which throws when the current directory was deleted.
    throw new ConfigurationError(
      `workspaceTools: the relative workdir ${JSON.stringify(workdir)} cannot be resolved because the current directory is gone (${(error as Error).message}); pass an absolute path`,
      { cause: error },
    );
  }
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ConfigurationError(
      `workspaceTools: workdir ${absolute} cannot be used (${code}); ${USAGE}`,
      { cause: error },
    );
  }
  if (!isDirectory) {
    throw configurationError(`workdir ${absolute} is not a directory; ${USAGE}`);
  }
  return absolute;
}

/**
 * The workspace tools — `read`, `write`, `edit` and `bash`, in that order, filtered by
 * `enabled` — bound to one workdir (a call's `ctx.workdir` cannot move them), sharing one path
 * guard configuration and one read ledger: a file read through this `read` may then be changed
 * through this `edit` or `write` in the same run, and a file the run has not read (or that
 * changed since) is refused. `bash` runs in the bubblewrap sandbox where it works (`sandbox`).
 *
 * @throws ConfigurationError when `workdir` is missing or is not an existing directory, when
 * `enabled` names an unknown tool or one tool twice, when an option is not recognised, or when
 * `bash` is enabled with `sandbox: 'bwrap'` and bubblewrap cannot work here.
 *
 * @example
 * const tools = workspaceTools({ workdir: process.cwd(), enabled: ['read', 'edit'] });
 * tools.map((tool) => tool.name); // ['read', 'edit']
 */
export function workspaceTools(options: WorkspaceToolsOptions): Tool[] {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw configurationError(`${describeZodError(parsed.error)}; ${USAGE}`);
  }
  const names = enabledNames(parsed.data.enabled);
  const workdir = resolveWorkdir(parsed.data.workdir);
  const protectedPaths = parsed.data.protectedPaths ?? [];
  const sandbox = parsed.data.sandbox ?? 'auto';
  if (names.includes('bash')) {
    const resolved = resolveSandbox(normalizeSandboxOptions(sandbox));
    if (resolved.unusable) throw configurationError(`sandbox: ${resolved.status.reason}`);
  }
  const onSandboxFallback = parsed.data.onSandboxFallback;
  const readLedger = new ReadLedger();
  const build: Record<WorkspaceToolName, () => Tool> = {
    read: () => createReadTool({ workdir, protectedPaths, readLedger }) as Tool,
    write: () => createWriteTool({ workdir, protectedPaths, readLedger }) as Tool,
    edit: () => createEditTool({ workdir, protectedPaths, readLedger }) as Tool,
    bash: () =>
      createBashTool({
        workdir,
        protectedPaths,
        sandbox,
        ...(onSandboxFallback ? { onSandboxFallback } : {}),
      }) as Tool,
  };
  return names.map((name) => build[name]());
}
