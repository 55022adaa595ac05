import { type Message, msg } from '../messages.js';
import { coreSystemPrompt, memoryHeading, memoryTruncatedNotice } from './system-prompt.js';

/** Memory injected into the prompt is capped so old runs cannot crowd out the task. */
export const MEMORY_MAX_CHARS = 4000;

/** Input of one context build. */
export interface BuildContextInput {
  prompt: string;
  /** Recent memory lines, oldest first (`<key>: <value>`). */
  memories: readonly string[];
  workdir: string;
}

/**
 * Compose what the model sees at the start of a run: the core system prompt, recent memory, and
 * the user's prompt.
 *
 * @example
 * const messages = new ContextBuilder().build({ prompt: 'hi', memories: [], workdir: '/repo' });
 */
export class ContextBuilder {
  build(input: BuildContextInput): Message[] {
    const messages: Message[] = [msg.system(coreSystemPrompt)];
    const memory = renderMemory(input.memories);
    if (memory) messages.push(msg.system(memory));
    messages.push(msg.user(input.prompt.trim()));
    return messages;
  }
}

/** Keep the newest memory lines that fit in {@link MEMORY_MAX_CHARS}; undefined when none. */
export function renderMemory(
  memories: readonly string[],
  maxChars = MEMORY_MAX_CHARS,
): string | undefined {
  if (memories.length === 0) return undefined;
  const kept: string[] = [];
  let used = memoryHeading.length + 1;
  let truncated = false;
  for (let i = memories.length - 1; i >= 0; i -= 1) {
    const line = memories[i] as string;
    const room = maxChars - used;
    if (line.length + 1 <= room) {
      kept.unshift(line);
      used += line.length + 1;
      continue;
    }
    truncated = true;
    // The newest line is worth keeping in part rather than dropping everything.
    if (kept.length === 0 && room > memoryTruncatedNotice.length + 40) {
      kept.unshift(`${line.slice(0, room - memoryTruncatedNotice.length - 2)}…`);
    }
    break;
  }
  if (kept.length === 0) return undefined;
  const body = truncated ? [memoryTruncatedNotice, ...kept] : kept;
  return `${memoryHeading}\n${body.join('\n')}`;
}
