import { realpath } from 'node:fs/promises';
import { type Message, msg } from '../messages.js';
import { loadProjectInstructions } from './agents-md.js';
import type { Skill } from './skills/skill.js';
import { discoverSkills } from './skills/skill-discovery.js';
import { renderActiveSkill, renderSkillIndex } from './skills/skill-render.js';
import { selectSkill } from './skills/skill-selection.js';
import {
  contextWarnings,
  coreSystemPrompt,
  memoryBlock,
  memoryTruncatedNotice,
} from './strings.js';

/** Memory injected into the prompt (its whole block) is capped so old runs cannot crowd out the task. */
export const MEMORY_MAX_CHARS = 4000;

/**
 * Input of one context build.
 *
 * @example
 * const input: BuildContextInput = { prompt: 'fix the test', memories: [], workdir: '/repo' };
 */
export interface BuildContextInput {
  prompt: string;
  /** Recent memory lines, oldest first (`<key>: <value>`). */
  memories: readonly string[];
  workdir: string;
  /** Extra system text from whoever built the agent, right after the core system prompt. */
  instructions?: string;
  /** Read `AGENTS.md` and the project's skills from the workdir (default true). */
  project?: boolean;
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
 * What the model sees at the start of a run, and what the loop must enforce because of it.
 *
 * @example
 * const { messages, allowedTools } = await new ContextBuilder().build(input);
 */
export interface BuiltContext {
  messages: Message[];
  selectedSkill?: SelectedSkill;
  /**
   * Lower-case tool names the selected skill narrows the run to; undefined = no narrowing. The loop
   * intersects it with the registered and policy-allowed tools, for the definitions it sends and
   * for execution alike. It can only remove tools, never add one.
   */
  allowedTools?: readonly string[];
  /** Project files skipped or cut, unknown explicit skills: for logs, never for the model. */
  warnings: string[];
}

/**
 * Compose what the model sees at the start of a run, in this order: the core system prompt,
 * `AGENTS.md`, the skill index, the active skill (system messages), then recent memory as a
 * delimited user-role block of past conversation data, and the trimmed user prompt.
 * Project files are read once per call and only from inside the workdir; a file that cannot be used
 * becomes a warning, never an error.
 *
 * @example
 * const { messages, allowedTools, warnings } = await new ContextBuilder().build({
 *   prompt: '$review src/a.ts',
 *   memories: [],
 *   workdir: '/repo',
 * });
 */
export class ContextBuilder {
  async build(input: BuildContextInput): Promise<BuiltContext> {
    const warnings: string[] = [];
    const messages: Message[] = [msg.system(coreSystemPrompt)];
    const instructions = input.instructions?.trim();
    if (instructions) messages.push(msg.system(instructions));
    let skills: Skill[] = [];
    const realWorkdir =
      input.project === false
        ? undefined
        : await realpath(input.workdir).catch((error: unknown) => {
            warnings.push(contextWarnings.workdirUnreadable(input.workdir, describe(error)));
            return undefined;
          });
    if (realWorkdir !== undefined) {
      const [project, discovery] = await Promise.all([
        loadProjectInstructions(realWorkdir),
        discoverSkills(realWorkdir),
      ]);
      warnings.push(...project.warnings, ...discovery.warnings);
      if (project.message !== undefined) messages.push(msg.system(project.message));
      skills = discovery.skills;
    }
    if (skills.length > 0) messages.push(msg.system(renderSkillIndex(skills)));

    const selection = selectSkill(skills, input.prompt);
    const skill = selection.skill;
    if (skill) messages.push(msg.system(renderActiveSkill(skill, selection)));
    else if (selection.requestedName !== undefined) {
      warnings.push(contextWarnings.skillUnknown(selection.requestedName));
    }

    // Memory holds user and model text: it goes in as user-role data, never as a system message.
    const memory = renderMemory(input.memories);
    if (memory) messages.push(msg.user(memory));
    messages.push(msg.user(input.prompt.trim()));

    const built: BuiltContext = { messages, warnings };
    if (skill) {
      built.selectedSkill = {
        name: skill.name,
        explicit: selection.explicit,
        arguments: selection.arguments,
        dir: skill.dir,
      };
      if (skill.allowedTools.length > 0) built.allowedTools = skill.allowedTools;
    }
    return built;
  }
}

/**
 * The recent-memory block: the newest memory lines that fit in {@link MEMORY_MAX_CHARS} (the
 * whole block, frame included), oldest first, between `<past_conversation>` tags with a preamble
 * that marks them as past data rather than instructions. A tag inside a line is defused so it
 * cannot close the block early. Undefined when there is nothing to show.
 *
 * @example
 * renderMemory(['last_prompt: fix the test', 'last_response: done']);
 * // '<past_conversation>\nRemembered from earlier runs …\nlast_prompt: fix the test\nlast_response: done\n</past_conversation>'
 */
export function renderMemory(
  memories: readonly string[],
  maxChars = MEMORY_MAX_CHARS,
): string | undefined {
  if (memories.length === 0) return undefined;
  const frame = [memoryBlock.open, memoryBlock.preamble, memoryBlock.close];
  // Room for the frame, its newlines and a truncation notice, whichever lines are kept.
  const budget =
    maxChars -
    frame.reduce((sum, part) => sum + part.length + 1, 0) -
    memoryTruncatedNotice.length -
    1;
  const kept: string[] = [];
  let used = 0;
  let truncated = false;
  for (let i = memories.length - 1; i >= 0; i -= 1) {
    const line = defuseTags(memories[i] as string);
    const room = budget - used;
    if (line.length + 1 <= room) {
      kept.unshift(line);
      used += line.length + 1;
      continue;
    }
    truncated = true;
    // The newest line is worth keeping in part rather than dropping everything.
    if (kept.length === 0 && room > 40) kept.unshift(`${line.slice(0, room - 2)}…`);
    break;
  }
  if (kept.length === 0) return undefined;
  const body = truncated ? [memoryTruncatedNotice, ...kept] : kept;
  return [memoryBlock.open, memoryBlock.preamble, ...body, memoryBlock.close].join('\n');
}

const MEMORY_TAG = /<(\/?)(past_conversation)>/gi;

function defuseTags(line: string): string {
  return line.replace(MEMORY_TAG, '&lt;$1$2>');
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
