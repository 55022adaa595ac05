/**
 * What the loop asks of a project context at the start of a run.
 *
 * @example
 * const input: ProjectContextInput = { prompt: '$review src/a.ts', workdir: '/repo' };
 */
export interface ProjectContextInput {
  /** The run's prompt as the caller gave it (untrimmed), e.g. to pick a skill from `$name args`. */
  prompt: string;
  /** The run's working directory (absolute). */
  workdir: string;
}

/**
 * The skill a run uses, as the loop and its logs need it.
 *
 * @example
 * const skill: SelectedSkill = { name: 'review', explicit: true, arguments: 'src/a.ts', dir: '/repo/.claw/skills/review' };
 */
export interface SelectedSkill {
  name: string;
  /** True for `$name` / `/name`, false for automatic selection. */
  explicit: boolean;
  /** The value substituted for `$ARGUMENTS`. */
  arguments: string;
  /** Absolute skill directory. */
  dir: string;
}

/**
 * What a project adds to one run.
 *
 * @example
 * const loaded: LoadedProjectContext = {
 *   system: ['Project instructions from AGENTS.md. …\n\nUse pnpm.'],
 *   warnings: [],
 * };
 */
export interface LoadedProjectContext {
  /**
   * System messages, in order. They follow the core system prompt and the agent's instructions
   * and come before the recent memory and the prompt.
   */
  system: readonly string[];
  /** The skill the run uses, when one was selected (logged, never shown to the model as such). */
  selectedSkill?: SelectedSkill;
  /**
   * Tool names (compared case-insensitively) the run is narrowed to; undefined = no narrowing. The
   * loop intersects it with the registered and policy-allowed tools, for the definitions it sends
   * and for execution alike, so it can only remove tools, never add one.
   */
  allowedTools?: readonly string[];
  /** Files skipped or cut, unknown skills: for the agent's logger, never for the model. */
  warnings: readonly string[];
}

/**
 * The project side of a run's context: called once at the start of every run (child runs
 * included) with the prompt and the workdir, it returns the system text the project adds, the
 * selected skill and the tool narrowing that comes with it. Core reads no project file itself;
 * `workspaceContext()` from `@tiny-claw/workspace` reads `AGENTS.md` and `.claw/skills`.
 * A file it cannot use should be a warning; a throw fails the run.
 *
 * @example
 * const conventions: ProjectContext = {
 *   load: async () => ({ system: ['Answer in British English.'], warnings: [] }),
 * };
 * const agent = createAgent({ provider, projectContext: conventions });
 */
export interface ProjectContext {
  load(input: ProjectContextInput): Promise<LoadedProjectContext>;
}
