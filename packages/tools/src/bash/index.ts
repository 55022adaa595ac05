import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ConfigurationError,
  defineTool,
  type Tool,
  type ToolContext,
  type ToolMetadata,
  type ToolOutput,
} from '@tiny-claw/core';
import { z } from 'zod';
import { isInside, resolveInWorkdir } from '../path-guard.js';
import { type CommandLaunch, prepareCommandLaunch } from '../sandbox/command-launch.js';
import { auditGitGuard, gitProtectedSpellings } from '../sandbox/git/git-guard-audit.js';
import type { GitGuardAction } from '../sandbox/git/quarantine.js';
import { sandboxBlockOf } from '../sandbox/sandbox-block.js';
import {
  normalizeSandboxOptions,
  type SandboxMode,
  type SandboxOptions,
  type SandboxStatus,
} from '../sandbox/sandbox-options.js';
import { type ResolvedSandbox, resolveSandbox } from '../sandbox/sandbox-status.js';
import { sandboxText } from '../sandbox/strings.js';
import { type FailureReporter, failureReporter, toolFailure } from '../tool-failure.js';
import { type BashErrorType, bashFailure } from './advice.js';
import { scrubEnvironment } from './env-scrub.js';
import { type ProcessGroupResult, runInProcessGroup } from './process-group.js';
import { MODEL_OUTPUT_MAX_CHARS, renderBashOutput, reportedExitCode } from './render-output.js';
import { bashText } from './strings.js';

/**
 * Limits of the `bash` tool.
 *
 * @example
 * BASH_LIMITS.maxTimeoutSeconds; // 600
 */
export const BASH_LIMITS = {
  defaultTimeoutSeconds: 120,
  maxTimeoutSeconds: 600,
  /** Linux MAX_ARG_STRLEN (one argv string, terminating NUL included) minus that NUL. */
  maxCommandBytes: 128 * 1024 - 1,
  /** Characters of one result sent to the model. */
  maxOutputChars: MODEL_OUTPUT_MAX_CHARS,
} as const;

/**
 * Options of {@link createBashTool}.
 *
 * @example
 * const options: BashToolOptions = { protectedPaths: [stateDir], extraSecretEnvNames: ['MY_DB_URL'] };
 */
export interface BashToolOptions {
  /**
   * The workdir commands run under. Default: the workdir of each call (`ctx.workdir`).
   * `workspaceTools` binds it, so a caller's context cannot move the tool elsewhere.
   */
  workdir?: string;
  /** Directories the command may not run in (the state dir); a `cwd` inside them is refused. */
  protectedPaths?: readonly string[];
  /** More variables to drop from the child environment: exact names, or prefixes ending in `*`. */
  extraSecretEnvNames?: readonly string[];
  /** Source of the child environment before scrubbing; default `process.env`, read per call. */
  env?: NodeJS.ProcessEnv;
  /**
   * How commands are confined (default `'auto'`): `'bwrap'` runs each one in bubblewrap — new
   * user, PID, IPC and network namespaces, `/` read-only, the workdir writable (its git hooks and
   * config not), a private `/tmp`, credentials and `protectedPaths` hidden; `'off'` runs it
   * directly, under `setpriv --pdeathsig KILL` where available; `'auto'` is `'bwrap'` when
   * bubblewrap works here, else `'off'`. An options object also sets `network` (default off) and
   * more paths to `hide`. `'bwrap'` that cannot work throws a `ConfigurationError` here.
   */
  sandbox?: SandboxMode | SandboxOptions;
  /**
   * Called once when `'auto'` finds no usable bubblewrap and commands will run unconfined.
   * Default: one `process.emitWarning` per process and reason.
   */
  onSandboxFallback?: (status: SandboxStatus) => void;
}

const bashSchema = z.strictObject({
  command: z
    .string()
    .refine((value) => value.trim() !== '', { error: bashText.errors.emptyCommand })
    .describe(bashText.commandDescription),
  cwd: z.string().default('.').describe(bashText.cwdDescription),
  timeout_seconds: z
    .number()
    .int()
    .min(1, { error: bashText.errors.timeoutTooSmall })
    .max(BASH_LIMITS.maxTimeoutSeconds, {
      error: bashText.errors.timeoutTooLarge(BASH_LIMITS.maxTimeoutSeconds),
    })
    .default(BASH_LIMITS.defaultTimeoutSeconds)
    .describe(
      bashText.timeoutDescription(BASH_LIMITS.defaultTimeoutSeconds, BASH_LIMITS.maxTimeoutSeconds),
    ),
});

/**
 * Arguments of the `bash` tool after parsing (defaults applied).
 *
 * @example
 * const args: BashArgs = { command: 'npm test', cwd: '.', timeout_seconds: 120 };
 */
export type BashArgs = z.output<typeof bashSchema>;

/** Where the command runs, or the error output explaining why it cannot. */
async function resolveCwd(
  cwd: string,
  workdir: string,
  options: BashToolOptions,
  fail: FailureReporter<BashErrorType>,
): Promise<{ path: string; relative: string } | ToolOutput> {
  const resolved = await resolveInWorkdir(workdir, cwd, { access: 'read' });
  if (!resolved.ok) return fail(`bash: ${resolved.error}`, resolved.errorType);
  for (const entry of options.protectedPaths ?? []) {
    const absolute = path.resolve(workdir, entry);
    const canonical = await realpath(absolute).catch(() => absolute);
    if (isInside(canonical, resolved.path) || isInside(absolute, resolved.path)) {
      return fail(bashText.errors.cwdProtected(cwd), 'protected_path');
    }
  }
  try {
    const stats = await stat(resolved.path);
    if (!stats.isDirectory()) return fail(bashText.errors.cwdNotDirectory(cwd), 'not_a_directory');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return fail(bashText.errors.cwdNotFound(cwd), 'not_found');
    }
    return fail(bashText.errors.cwdStat(cwd, code), 'execution_error');
  }
  return { path: resolved.path, relative: resolved.relative };
}

/** Signal name for an exit code above 128, when it names a real signal. */
function signalForCode(code: number): string | undefined {
  if (code <= 128 || code >= 128 + 65) return undefined;
  const number = code - 128;
  const names: Partial<Record<number, string>> = {
    1: 'SIGHUP',
    2: 'SIGINT',
    3: 'SIGQUIT',
    4: 'SIGILL',
    6: 'SIGABRT',
    7: 'SIGBUS',
    8: 'SIGFPE',
    9: 'SIGKILL',
    11: 'SIGSEGV',
    13: 'SIGPIPE',
    14: 'SIGALRM',
    15: 'SIGTERM',
  };
  return names[number];
}

/** One line per thing the git guard undid, with paths relative to the workdir. */
function gitGuardNote(actions: readonly GitGuardAction[], workdir: string): string {
  const shown = (target: string) => path.relative(workdir, target) || '.';
  return bashText.notes.gitGuard(
    actions.map((action) => {
      const what = `${shown(action.path)} (${bashText.notes.gitGuardReasons[action.reason]})`;
      if (action.failed !== undefined) return `${what}: could not be undone (${action.failed})`;
      if (action.removed !== undefined) return `${what}: removed ${action.removed.join(' | ')}`;
      return `${what}: moved to ${shown(action.movedTo ?? action.path)}`;
    }),
  );
}

/** The text a sandbox failure shows in: the error output, and the end of the normal output. */
function outputText(result: ProcessGroupResult): string {
  const { stdout, stderr } = result;
  return [stderr.head, stderr.tail, stdout.tail].map((part) => part.toString('utf8')).join('\n');
}

async function runBash(
  args: BashArgs,
  ctx: ToolContext,
  options: BashToolOptions,
  sandbox: ResolvedSandbox,
): Promise<ToolOutput> {
  const { signal } = ctx;
  const call = {
    command: args.command,
    visibleTools: ctx.visibleTools,
    maxTimeoutSeconds: BASH_LIMITS.maxTimeoutSeconds,
  };
  const fail = failureReporter((type: BashErrorType) => bashFailure(type, call));
  if (args.command.includes('\0')) return fail(bashText.errors.nulInCommand, 'nul_in_command');
  const bytes = Buffer.byteLength(args.command, 'utf8');
  if (bytes > BASH_LIMITS.maxCommandBytes) {
    return fail(
      bashText.errors.commandTooLong(bytes, BASH_LIMITS.maxCommandBytes),
      'command_too_long',
    );
  }
  if (signal.aborted) return fail(bashText.errors.cancelledBeforeStart, 'cancelled');
  const cwd = await resolveCwd(args.cwd, options.workdir ?? ctx.workdir, options, fail);
  if ('content' in cwd) return cwd;

  const env = scrubEnvironment(options.env ?? process.env, options.extraSecretEnvNames);
  // bash trusts an inherited PWD that names the cwd; a stale one would confuse `pwd -L`.
  env.PWD = cwd.path;
  const active = sandbox.status.active;
  let launch: CommandLaunch;
  try {
    launch = await prepareCommandLaunch(sandbox, {
      workdir: options.workdir ?? ctx.workdir,
      cwd: cwd.path,
      protectedPaths: options.protectedPaths ?? [],
      env,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(bashText.errors.sandboxFailed(message), 'sandbox_failed', { sandbox: active });
  }
  const result = await runInProcessGroup({
    command: args.command,
    cwd: cwd.path,
    env: launch.env,
    timeoutMs: args.timeout_seconds * 1000,
    signal,
    ...launch.processOptions,
  });
  const gitGuard = launch.gitGuard ? await auditGitGuard(launch.gitGuard) : [];
  if (result.spawnError !== undefined) {
    return fail(bashText.errors.spawnFailed(result.spawnError), 'spawn_failed', {
      sandbox: active,
    });
  }
  if (result.launchFailed) {
    const why = result.stderr.head.toString('utf8').trim() || `exit code ${result.code}`;
    return fail(bashText.errors.sandboxFailed(why), 'sandbox_failed', { sandbox: active });
  }

  const exitCode = reportedExitCode({
    code: result.code,
    signal: result.signal,
    timedOut: result.timedOut,
  });
  const notes: string[] = [];
  if (result.timedOut) notes.push(bashText.notes.timedOut(args.timeout_seconds));
  else if (result.cancelled) notes.push(bashText.notes.cancelled);
  else if (result.code !== null) {
    const name = signalForCode(result.code);
    if (name) notes.push(bashText.notes.signalHint(result.code, name));
  }
  if (result.leftoversKilled && !result.timedOut && !result.cancelled) {
    notes.push(bashText.notes.leftoversKilled);
  }
  if (result.pipesAbandoned) notes.push(bashText.notes.pipesAbandoned);
  if (gitGuard.length > 0)
    notes.push(gitGuardNote(gitGuard, launch.gitGuard?.snapshot.workdir ?? cwd.path));

  const rendered = renderBashOutput({
    exitCode,
    timedOut: result.timedOut,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    notes,
  });
  const metadata: ToolMetadata = {
    exit_code: exitCode,
    timed_out: result.timedOut,
    stdout_truncated: rendered.stdoutTruncated,
    stderr_truncated: rendered.stderrTruncated,
    stdout_bytes: result.stdout.totalBytes,
    stderr_bytes: result.stderr.totalBytes,
    duration_ms: result.durationMs,
    cwd: cwd.relative,
    sandbox: active,
  };
  if (result.signal) metadata.signal = result.signal;
  if (gitGuard.length > 0) metadata.git_guard = gitGuard.map((action) => ({ ...action }));
  if (result.leftoversKilled) metadata.leftovers_killed = true;
  if (result.cancelled) {
    return fail(rendered.content, 'cancelled', { ...metadata, cancelled: true });
  }
  if (result.timedOut) return fail(rendered.content, 'bash_timeout', metadata);
  if (exitCode !== 0) {
    const outputTruncated = rendered.stdoutTruncated || rendered.stderrTruncated;
    const sandboxBlock =
      active === 'bwrap'
        ? sandboxBlockOf(outputText(result), {
            command: args.command,
            hidden: launch.hidden,
            network: sandbox.options.network,
            gitProtected: launch.gitGuard ? gitProtectedSpellings(launch.gitGuard) : [],
          })
        : undefined;
    if (sandboxBlock) metadata.sandbox_block = sandboxBlock;
    const failure = bashFailure('bash_command_failed', {
      ...call,
      outputTruncated,
      ...(sandboxBlock ? { sandboxBlock } : {}),
    });
    return toolFailure(rendered.content, 'bash_command_failed', failure, metadata);
  }
  return { content: rendered.content, isError: false, metadata };
}

const warnedFallbacks = new Set<string>();

function warnOnce(status: SandboxStatus): void {
  if (warnedFallbacks.has(status.reason)) return;
  warnedFallbacks.add(status.reason);
  process.emitWarning(sandboxText.fallback(status.reason), { code: 'TINY_CLAW_SANDBOX_OFF' });
}

/**
 * Create the `bash` tool (not parallel-safe): runs `command` with `bash -c` in its own process
 * group under the workdir (`options.workdir`, else `ctx.workdir`), with a scrubbed environment,
 * closed stdin, a timeout that kills the whole group, and bounded output — inside the bubblewrap
 * sandbox when `options.sandbox` (default `'auto'`) gives one. A non-zero exit is an error
 * output (failure kind `command_failed`, code `bash_command_failed`), a timeout too (kind
 * `timeout`, code `bash_timeout`, exit code 124), with advice fitted to the command; a
 * failure the sandbox caused (a read-only or hidden path, no network) gets advice naming the
 * setting that lifts it.
 *
 * @throws ConfigurationError when `sandbox` is `'bwrap'` and bubblewrap cannot work here.
 *
 * @example
 * const bash = createBashTool({ protectedPaths: [stateDir], sandbox: 'auto' });
 * const out = await bash.run(bash.parse({ command: 'ls -la', cwd: 'src' }), ctx);
 * // out.content === 'exit_code=0 stdout_truncated=false stderr_truncated=false\nstdout:\n…'
 */
export function createBashTool(options: BashToolOptions = {}): Tool<BashArgs> {
  const sandbox = resolveSandbox(normalizeSandboxOptions(options.sandbox));
  if (sandbox.unusable) throw new ConfigurationError(`bash: ${sandbox.status.reason}`);
  if (sandbox.status.mode === 'auto' && sandbox.status.active === 'off') {
    (options.onSandboxFallback ?? warnOnce)(sandbox.status);
  }
  const confinement =
    sandbox.status.active === 'bwrap'
      ? bashText.sandboxDescription(sandbox.options.network)
      : undefined;
  return defineTool({
    name: 'bash',
    description: bashText.description(
      BASH_LIMITS.defaultTimeoutSeconds,
      BASH_LIMITS.maxTimeoutSeconds,
      BASH_LIMITS.maxOutputChars,
      confinement,
    ),
    parameters: bashSchema,
    parallelSafe: false,
    run: (args, ctx) => runBash(args, ctx, options, sandbox),
  });
}
