import { open } from 'node:fs/promises';
import type { Application } from '@tiny-claw/runtime';
import { resolveInWorkdir } from '@tiny-claw/tools';
import { chatText } from './chat-strings.js';

/** The most of one mentioned file attached to a prompt, in bytes. */
export const MENTION_MAX_BYTES = 64 * 1024;

// After a space, the start or an opening bracket; sentence punctuation after the path is not part
// of it (`see @a.ts, then …`).
const MENTION = /(?:^|[\s([{])@([^\s@]+?)[,.;:!?)\]}'"]*(?=\s|$)/g;

/** A mention found in a prompt: the path as typed, attached or not. */
export type Mention =
  | { path: string; attached: true; relative: string; text: string; truncated: boolean }
  | { path: string; attached: false; reason: string };

/**
 * Every `@path` of `text` (each path once; an e-mail address is not one), resolved through the read tool's path guard: a file
 * inside the workdir that is not one of tiny-claw's own settings, state or trust files. A file is
 * read up to {@link MENTION_MAX_BYTES}; one that is not UTF-8 text is not attached.
 *
 * @example
 * const mentions = await readMentions('explain @src/a.ts', settings);
 */
export async function readMentions(
  text: string,
  settings: Pick<Application['settings'], 'workdir' | 'stateDir' | 'configDir' | 'settingsPaths'>,
): Promise<Mention[]> {
  const paths = [...new Set([...text.matchAll(MENTION)].map((match) => match[1] ?? ''))];
  return Promise.all(
    paths
      .filter((path) => path !== '')
      .map(async (path): Promise<Mention> => {
        const guarded = await resolveInWorkdir(settings.workdir, path, {
          access: 'read',
          protectedPaths: [settings.stateDir, settings.configDir],
          settingsPaths: settings.settingsPaths,
        });
        if (!guarded.ok) return { path, attached: false, reason: guarded.error };
        const content = await readText(guarded.path);
        if (typeof content === 'string') return { path, attached: false, reason: content };
        return { path, attached: true, relative: guarded.relative, ...content };
      }),
  );
}

/**
 * The prompt with the files its `@path` mentions name attached after it, each in a
 * `<file path="…">` block; what could not be attached is said on `say` and left as typed.
 *
 * @example
 * const prompt = await attachMentions('explain @src/a.ts', app, say);
 */
export async function attachMentions(
  text: string,
  app: Pick<Application, 'settings'>,
  say: (line: string) => void,
): Promise<string> {
  const mentions = await readMentions(text, app.settings);
  const blocks: string[] = [];
  for (const mention of mentions) {
    if (!mention.attached) {
      say(chatText.mentionRefused(mention.path, mention.reason));
      continue;
    }
    say(chatText.mentionAttached(mention.relative, mention.text.length));
    const note = mention.truncated ? ` truncated="first ${MENTION_MAX_BYTES} bytes"` : '';
    blocks.push(`<file path="${mention.relative}"${note}>\n${mention.text}\n</file>`);
  }
  return blocks.length === 0 ? text : `${text}\n\n${blocks.join('\n\n')}`;
}

/** The file's text, or why it is not attached. */
async function readText(path: string): Promise<{ text: string; truncated: boolean } | string> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const info = await handle.stat();
    if (!info.isFile()) return 'not a regular file';
    const buffer = Buffer.alloc(Math.min(info.size, MENTION_MAX_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return 'not a text file';
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    return { text, truncated: info.size > MENTION_MAX_BYTES };
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  } finally {
    await handle?.close();
  }
}
