import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

/**
 * `node:util` parseArgs (strict, with positionals) with its errors turned into usage errors of
 * `command`. Kept free of other imports: the chat parses its arguments on the light start-up path.
 *
 * @example
 * const { values, positionals } = parseCommandArgs('run', argv, { json: { type: 'boolean' } });
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: string[],
  options: O,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), command);
  }
}
