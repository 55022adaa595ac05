import { join } from 'node:path';
import { readWorkdirText, skippedWarning } from './read-workdir-text.js';
import {
  contextWarnings,
  projectInstructionsHeading,
  projectInstructionsTruncatedNotice,
} from './strings.js';

/** The project instructions file, at the root of the workdir. */
export const AGENTS_MD_FILE = 'AGENTS.md';
/** AGENTS.md is cut to this many characters. */
export const AGENTS_MD_MAX_CHARS = 32_000;

/** The AGENTS.md system message (undefined when there is none or it is empty) and warnings. */
export interface ProjectInstructions {
  message?: string;
  warnings: string[];
}

/**
 * Read `<workdir>/AGENTS.md` when it is a regular UTF-8 file whose real path stays inside the
 * workdir, and render it as the project-instructions system message (cut at
 * {@link AGENTS_MD_MAX_CHARS} with a notice). `realWorkdir` must already be a realpath. Never throws.
 *
 * @example
 * const { message, warnings } = await loadProjectInstructions(await realpath('/repo'));
 */
export async function loadProjectInstructions(
  realWorkdir: string,
  maxChars = AGENTS_MD_MAX_CHARS,
): Promise<ProjectInstructions> {
  const read = await readWorkdirText(realWorkdir, join(realWorkdir, AGENTS_MD_FILE), maxChars);
  if (read.status === 'missing') return { warnings: [] };
  if (read.status === 'skipped') return { warnings: [skippedWarning(AGENTS_MD_FILE, read)] };
  const warnings = read.truncated ? [contextWarnings.truncated(AGENTS_MD_FILE, maxChars)] : [];
  const message = renderProjectInstructions(read.text, read.truncated);
  return message === undefined ? { warnings } : { message, warnings };
}

/**
 * The project-instructions system message: a heading that ranks it (above skills, below the core
 * rules), the trimmed content, and the truncation notice when it was cut. An empty file gives none.
 *
 * @example
 * renderProjectInstructions('Use pnpm.', false);
 */
export function renderProjectInstructions(content: string, truncated: boolean): string | undefined {
  const text = content.trim();
  if (text === '' && !truncated) return undefined;
  const notice = truncated ? `\n\n${projectInstructionsTruncatedNotice}` : '';
  return `${projectInstructionsHeading}\n\n${text}${notice}`;
}
