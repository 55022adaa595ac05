import { isAbsolute, resolve } from 'node:path';
import { ConfigurationError } from '@tiny-claw/core';
import { z } from 'zod';

/**
 * The tools whose calls are judged unless configured otherwise.
 *
 * @example
 * assessCall(call, { workdir, requiredTools: [...DEFAULT_APPROVAL_REQUIRED_TOOLS, 'fetch'] });
 */
export const DEFAULT_APPROVAL_REQUIRED_TOOLS: readonly string[] = Object.freeze([
  'bash',
  'edit',
  'write',
]);

/**
 * What the risk policy needs to know about the workspace.
 *
 * @example
 * const options: RiskPolicyOptions = { workdir: '/srv/app', protectedPaths: ['/srv/app/.tiny-claw'] };
 */
export interface RiskPolicyOptions {
  /** Tools whose calls are judged; any other tool is allowed. Default {@link DEFAULT_APPROVAL_REQUIRED_TOOLS}. */
  readonly requiredTools?: readonly string[];
  /** The directory the tools work in (absolute). */
  readonly workdir: string;
  /** Paths no call may write into (the state dir), absolute or relative to `workdir`. */
  readonly protectedPaths?: readonly string[];
  /**
   * Whether bash commands run in a sandbox that lets them write only in the workdir: `bwrap`
   * refuses a write outside the workdir (approving it could not make it work), `off` asks for it.
   * Left out, such a write is refused, as the safer reading.
   */
  readonly sandbox?: SandboxInForce;
  /**
   * Tools that only read, as whoever provides them says (an MCP server's `readOnlyHint`): for these
   * alone a kept `allow` rule lifts the approval a tool of `requiredTools` needs. Default none.
   */
  readonly readOnlyTools?: readonly string[];
}

/**
 * The bash sandbox in force where the judged commands run.
 *
 * @example
 * const sandbox: SandboxInForce = 'bwrap';
 */
export type SandboxInForce = 'bwrap' | 'off';

/**
 * Options after validation: absolute, normalised paths and the tool list filled in.
 *
 * @example
 * const policy: ResolvedRiskPolicy = readRiskPolicyOptions({ workdir: '/w' });
 */
export interface ResolvedRiskPolicy {
  readonly requiredTools: readonly string[];
  readonly workdir: string;
  readonly protectedPaths: readonly string[];
  /** The sandbox in force, or `null` when the caller did not say. */
  readonly sandbox: SandboxInForce | null;
  readonly readOnlyTools: readonly string[];
}

const optionsSchema = z.object({
  requiredTools: z.array(z.string().min(1)).readonly().optional(),
  workdir: z
    .string()
    .min(1)
    .refine((value) => isAbsolute(value), { error: 'must be an absolute path' }),
  protectedPaths: z.array(z.string().min(1)).readonly().optional(),
  sandbox: z.enum(['bwrap', 'off']).optional(),
  readOnlyTools: z.array(z.string().min(1)).readonly().optional(),
});

/**
 * Validate and normalise policy options.
 *
 * @throws ConfigurationError naming each invalid field and what it must be.
 * @example
 * readRiskPolicyOptions({ workdir: '/w', protectedPaths: ['.state'] }).protectedPaths; // ['/w/.state']
 */
export function readRiskPolicyOptions(options: RiskPolicyOptions): ResolvedRiskPolicy {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`,
    );
    throw new ConfigurationError(
      `Invalid risk policy options (${problems.join('; ')}). Pass { workdir: '/absolute/dir', protectedPaths?: string[], requiredTools?: string[], sandbox?: 'bwrap' | 'off', readOnlyTools?: string[] }.`,
    );
  }
  const workdir = resolve(parsed.data.workdir);
  return {
    requiredTools: parsed.data.requiredTools ?? DEFAULT_APPROVAL_REQUIRED_TOOLS,
    workdir,
    protectedPaths: (parsed.data.protectedPaths ?? []).map((path) => resolve(workdir, path)),
    sandbox: parsed.data.sandbox ?? null,
    readOnlyTools: parsed.data.readOnlyTools ?? [],
  };
}
