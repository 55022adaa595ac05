import { statSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigurationError,
  describeZodError,
  type Tool,
  type ToolContext,
  type ToolOutput,
} from '@tiny-claw/core';
import { z } from 'zod';
import { createBashTool } from './bash/index.js';
import { createEditTool } from './edit/index.js';
import { ReadLedger } from './file-state/read-ledger.js';
import { resolveInWorkdir } from './path-guard.js';
import { createReadTool } from './read/index.js';
import {
  normalizeSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
  type SandboxStatus,
  sandboxOptionSchema,
} from './sandbox/sandbox-options.js';
import { resolveSandbox } from './sandbox/sandbox-status.js';
import { toolFailure } from './tool-failure.js';
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
  /**
   * The directory the tools work in, pinned: resolved to an absolute path once, and it must
   * exist. Default: the workdir of the run that calls them (the agent's `workdir`, which is
   * `process.cwd()` unless `createAgent` is given one), resolved and confined at every call.
   */
  workdir?: string;
  /** Which tools to return (default all four); each name at most once. */
  enabled?: readonly WorkspaceToolName[];
  /**
   * Paths (absolute, or relative to the workdir) the tools may never write and bash may not run
   * in, even before they exist — typically the agent's state directory. `.git` is always
   * protected.
   */
  protectedPaths?: readonly string[];
  /**
   * Files and folders (absolute, or relative to a pinned `workdir`) the agent reads its own settings or
   * trust from — its API keys among them. `read`, `write` and `edit` refuse them (a missing one
   * too, and through a symlink, `..` or a hard link), and sandboxed commands do not see the ones
   * that exist. A folder among them that lies in the workdir and may not exist yet belongs in
   * `protectedPaths` as well, so that a command cannot create it either.
   */
  settingsPaths?: readonly string[];
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
  "pass { workdir?: an existing directory, enabled?: ['read', 'write', 'edit', 'bash'], protectedPaths?: string[], settingsPaths?: string[], sandbox?: 'auto' | 'bwrap' | 'off' }, " +
  "for example workspaceTools({ enabled: ['read', 'edit'] }) to work in the agent's workdir";

// Checked at runtime too: JavaScript callers and config files bypass the types.
const optionsSchema = z.strictObject({
  workdir: z
    .string({ error: 'workdir must be a string (or left out for the agent’s workdir)' })
    .refine((value) => value.trim() !== '', { error: 'workdir is empty' })
    .optional(),
  enabled: z.array(z.string()).optional(),
  protectedPaths: z.array(z.string()).optional(),
  settingsPaths: z
    .array(
      z
        .string()
        .refine((value) => value.trim() !== '', { error: 'settingsPaths has an empty path' }),
    )
    .optional(),
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

/** What the model is told when a path is one of the agent's own settings. */
const SETTINGS_ADVICE =
  'This is the agent’s own configuration or state (API keys, trusted folders, approvals, traces): no tool may read or change it, by any path. ' +
  'Do not look for another way to it; if the task needs a setting, ask the user.';

/**
 * `tool` with every settings path refused before it runs: the path guard, with the settings paths
 * and read access, refuses nothing else as a protected path.
 */
function refusingSettings<A extends { path: string }>(
  tool: Tool<A>,
  workdir: string | undefined,
  settingsPaths: readonly string[],
): Tool<A> {
  if (settingsPaths.length === 0) return tool;
  return {
    ...tool,
    run: async (args: A, ctx: ToolContext): Promise<ToolOutput> => {
      const guarded = await resolveInWorkdir(workdir ?? ctx.workdir, args.path, {
        access: 'read',
        settingsPaths,
      });
      if (!guarded.ok && guarded.errorType === 'protected_path') {
        return toolFailure(`${tool.name}: ${guarded.error}`, 'protected_path', {
          kind: 'protected_path',
          advice: SETTINGS_ADVICE,
        });
      }
      return tool.run(args, ctx);
    },
  };
}

/** The sandbox option with `paths` hidden as well. */
function hiding(
  sandbox: SandboxMode | SandboxOptions,
  paths: readonly string[],
): SandboxMode | SandboxOptions {
  if (paths.length === 0) return sandbox;
  if (typeof sandbox === 'string') return { mode: sandbox, hide: [...paths] };
  return { ...sandbox, hide: [...(sandbox.hide ?? []), ...paths] };
}

/**
 * The workspace tools — `read`, `write`, `edit` and `bash`, in that order, filtered by
 * `enabled` — working in the workdir of the run that calls them (`ctx.workdir`: the agent's
 * `workdir`), or, given `workdir`, bound to that one (a call's `ctx.workdir` cannot move them).
 * Either way every path is resolved against the real path of that workdir and confined to it by
 * the same path guard, protected paths and sandbox. They share one read ledger: a file read through this `read` may then be changed
 * through this `edit` or `write` in the same run, and a file the run has not read (or that
 * changed since) is refused. `bash` runs in the bubblewrap sandbox where it works (`sandbox`).
 * The agent's own settings (`settingsPaths`) are out of every tool's reach.
 *
 * @throws ConfigurationError when a given `workdir` is not an existing directory, when a
 * `settingsPaths` entry is relative without a `workdir` to resolve it against, when
 * `enabled` names an unknown tool or one tool twice, when an option is not recognised, or when
 * `bash` is enabled with `sandbox: 'bwrap'` and bubblewrap cannot work here.
 *
 * @example
 * const tools = workspaceTools({ enabled: ['read', 'edit'] });
 * tools.map((tool) => tool.name); // ['read', 'edit']
 * const agent = createAgent({ provider, workdir: '/srv/repo', tools }); // they work in /srv/repo
 */
export function workspaceTools(options: WorkspaceToolsOptions = {}): Tool[] {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    throw configurationError(`${describeZodError(parsed.error)}; ${USAGE}`);
  }
  const names = enabledNames(parsed.data.enabled);
  const workdir =
    parsed.data.workdir === undefined ? undefined : resolveWorkdir(parsed.data.workdir);
  const protectedPaths = parsed.data.protectedPaths ?? [];
  const settingsPaths = (parsed.data.settingsPaths ?? []).map((entry) => {
    if (workdir !== undefined) return path.resolve(workdir, entry);
    // Without a pinned workdir there is nothing to resolve a relative path against here, and
    // the sandbox hides these paths before any call says which workdir it runs in.
    if (!path.isAbsolute(entry)) {
      throw configurationError(
        `settingsPaths has the relative path ${JSON.stringify(entry)} but no workdir to resolve it against; pass absolute settingsPaths, or pin workdir`,
      );
    }
    return path.resolve(entry);
  });
  const sandbox = hiding(parsed.data.sandbox ?? 'auto', settingsPaths);
  if (names.includes('bash')) {
    const resolved = resolveSandbox(normalizeSandboxOptions(sandbox));
    if (resolved.unusable) throw configurationError(`sandbox: ${resolved.status.reason}`);
  }
  const onSandboxFallback = parsed.data.onSandboxFallback;
  const readLedger = new ReadLedger();
  const build: Record<WorkspaceToolName, () => Tool> = {
    read: () =>
      refusingSettings(
        createReadTool({ workdir, protectedPaths, readLedger }),
        workdir,
        settingsPaths,
      ) as Tool,
    write: () =>
      refusingSettings(
        createWriteTool({ workdir, protectedPaths, readLedger }),
        workdir,
        settingsPaths,
      ) as Tool,
    edit: () =>
      refusingSettings(
        createEditTool({ workdir, protectedPaths, readLedger }),
        workdir,
        settingsPaths,
      ) as Tool,
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
