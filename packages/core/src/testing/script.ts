import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ConfigurationError, errorMessage } from '../errors.js';

const scriptedToolCallSchema = z
  .object({
    id: z.string().min(1).optional(),
    name: z.string(),
    // A string is sent as raw JSON text so bad-argument cases can be reproduced.
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  })
  .strict();

const scriptedTurnSchema = z
  .object({
    text: z.string().optional(),
    tool_calls: z.array(scriptedToolCallSchema).optional(),
    usage: z
      .object({
        input_tokens: z.number().int().nonnegative(),
        output_tokens: z.number().int().nonnegative(),
      })
      .strict()
      .optional(),
  })
  .strict();

/**
 * A scripted conversation: one turn per model call, in order.
 * `{"turns":[{"text":"…","tool_calls":[{"name":"lookup","arguments":{"city":"Oslo"}}]}]}`
 */
export const scriptSchema = z.object({ turns: z.array(scriptedTurnSchema) }).strict();

export type Script = z.infer<typeof scriptSchema>;
export type ScriptedTurn = z.infer<typeof scriptedTurnSchema>;

/**
 * Validate a script value; throws ConfigurationError naming `source` and each problem.
 *
 * @example
 * parseScript({ turns: [{ text: 'done' }] }, 'inline');
 */
export function parseScript(value: unknown, source: string): Script {
  const parsed = scriptSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `  - ${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('\n');
  throw new ConfigurationError(
    `Invalid script ${source}:\n${problems}\nExpected {"turns":[{"text":"…","tool_calls":[{"name":"lookup","arguments":{…}}]}]}.`,
  );
}

/**
 * Read and validate a script file (TINY_CLAW_SCRIPT).
 *
 * @example
 * const script = await loadScript('demo/script.json');
 */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigurationError(
      `Cannot read script file ${path}: ${errorMessage(error)}. Set TINY_CLAW_SCRIPT to an existing JSON file.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`Script file ${path} is not valid JSON: ${errorMessage(error)}`);
  }
  return parseScript(value, path);
}
