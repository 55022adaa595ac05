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
}

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
}

const optionsSchema = z.object({
  requiredTools: z.array(z.string().min(1)).readonly().optional(),
  workdir: z
    .string()
    .min(1)
    .refine((value) => isAbsolute(value), { error: 'must be an absolute path' }),
  protectedPaths: z.array(z.string().min(1)).readonly().optional(),
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
      `Invalid risk policy options (${problems.join('; ')}). Pass { workdir: '/absolute/dir', protectedPaths?: string[], requiredTools?: string[] }.`,
    );
  }
  const workdir = resolve(parsed.data.workdir);
  return {
    requiredTools: parsed.data.requiredTools ?? DEFAULT_APPROVAL_REQUIRED_TOOLS,
    workdir,
    protectedPaths: (parsed.data.protectedPaths ?? []).map((path) => resolve(workdir, path)),
  };
}
