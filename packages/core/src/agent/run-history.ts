import { z } from 'zod';
import { ConfigurationError } from '../errors.js';
import { type Message, msg } from '../messages.js';
import { MAX_PROMPT_BYTES } from './prompt-limit.js';

// Earlier turns are what a person and the model said: text, nothing a tool answered.
const turnSchema = z.object({
  role: z.enum(['user', 'assistant'], {
    error: 'each history message must have role "user" or "assistant"',
  }),
  content: z.string({ error: 'each history message must have text content' }),
});

// The whole history may be as large as eight prompts; compaction shortens it for the model.
const MAX_HISTORY_BYTES = 8 * MAX_PROMPT_BYTES;

/**
 * Check the earlier turns a front end passes to a run and rebuild them as plain messages (only
 * their role and text are kept, so nothing else a caller attached travels into the run).
 *
 * @throws ConfigurationError naming the first bad message, or a history over 8 MiB.
 * @example
 * readRunHistory([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }]);
 */
export function readRunHistory(history: unknown): Message[] {
  if (!Array.isArray(history))
    throw new ConfigurationError(
      'history must be an array of { role: "user" | "assistant", content: string } messages, oldest first.',
    );
  let bytes = 0;
  return history.map((entry, index) => {
    const parsed = turnSchema.safeParse(entry);
    if (!parsed.success)
      throw new ConfigurationError(
        `history[${index}] is not a turn: ${parsed.error.issues[0]?.message ?? 'invalid'}. Pass { role: "user" | "assistant", content: string }.`,
      );
    bytes += Buffer.byteLength(parsed.data.content, 'utf8');
    if (bytes > MAX_HISTORY_BYTES)
      throw new ConfigurationError(
        `history is over ${MAX_HISTORY_BYTES / 1024 / 1024} MiB; pass the recent turns only.`,
      );
    return parsed.data.role === 'user'
      ? msg.user(parsed.data.content)
      : msg.assistant(parsed.data.content);
  });
}
