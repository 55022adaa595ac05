import { type Message, msg } from '../messages.js';
import type { LoadedProjectContext, ProjectContext, SelectedSkill } from './project-context.js';
import { coreSystemPrompt, memoryBlock, memoryTruncatedNotice } from './strings.js';

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
  /** What the project adds (AGENTS.md, skills …); undefined: nothing is read. */
  project?: ProjectContext | undefined;
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
   * Tool names the project context narrows the run to; undefined = no narrowing. The loop
   * intersects it with the registered and policy-allowed tools, for the definitions it sends and
   * for execution alike. It can only remove tools, never add one.
   */
  allowedTools?: readonly string[];
  /** Project files skipped or cut, unknown explicit skills: for logs, never for the model. */
  warnings: string[];
}

/**
 * Options of a {@link ContextBuilder}.
 *
 * @example
 * const options: ContextBuilderOptions = { systemPrompt: 'You are a release-notes writer.' };
 */
export interface ContextBuilderOptions {
  /** The first system message of every run, in place of the core system prompt (default: it). */
  systemPrompt?: string;
}

/**
 * Compose what the model sees at the start of a run, in this order: the system prompt (the core
 * one unless the builder was given its own), the agent's instructions, the project context's system messages (with `workspaceContext()`:
 * AGENTS.md, the skill index, the active skill), then recent memory as a delimited user-role block
 * of past conversation data, and the trimmed user prompt. Without a project context nothing is
 * read from the workdir.
 *
 * @example
 * const { messages, allowedTools, warnings } = await new ContextBuilder().build({
 *   prompt: '$review src/a.ts',
 *   memories: [],
 *   workdir: '/repo',
 *   project: workspaceContext(),
 * });
 */
export class ContextBuilder {
  readonly #systemPrompt: string;

  constructor(options: ContextBuilderOptions = {}) {
    this.#systemPrompt = options.systemPrompt ?? coreSystemPrompt;
  }

  async build(input: BuildContextInput): Promise<BuiltContext> {
    const messages: Message[] = [msg.system(this.#systemPrompt)];
    const instructions = input.instructions?.trim();
    if (instructions) messages.push(msg.system(instructions));
    const project: LoadedProjectContext = input.project
      ? await input.project.load({ prompt: input.prompt, workdir: input.workdir })
      : { system: [], warnings: [] };
    for (const text of project.system) messages.push(msg.system(text));

    // Memory holds user and model text: it goes in as user-role data, never as a system message.
    const memory = renderMemory(input.memories);
    if (memory) messages.push(msg.user(memory));
    messages.push(msg.user(input.prompt.trim()));

    const built: BuiltContext = { messages, warnings: [...project.warnings] };
    if (project.selectedSkill) built.selectedSkill = { ...project.selectedSkill };
    if (project.allowedTools) built.allowedTools = [...project.allowedTools];
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
