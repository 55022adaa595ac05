import { parseCommandArgs } from './parse-command-args.js';
import { UsageError } from './usage-error.js';

/** Options of `tiny-claw mcp list`, validated. */
export interface McpArgs {
  action: 'list' | undefined;
  json: boolean;
  workdir: string | undefined;
  help: boolean;
}

/**
 * Parse `tiny-claw mcp list [--json] [--workdir DIR]`; throws {@link UsageError} for anything wrong.
 *
 * @example
 * parseMcpArgs(['list', '--json']); // { action: 'list', json: true, workdir: undefined, help: false }
 */
export function parseMcpArgs(argv: string[]): McpArgs {
  const parsed = parseCommandArgs('mcp', argv, {
    json: { type: 'boolean', default: false },
    workdir: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const [action, ...extra] = parsed.positionals;
  if (action !== undefined && action !== 'list') {
    throw new UsageError(`mcp ${JSON.stringify(action)}: expected mcp list`, 'mcp');
  }
  if (extra.length > 0) {
    throw new UsageError(
      `mcp list takes no arguments, got ${JSON.stringify(extra.join(' '))}`,
      'mcp',
    );
  }
  const { json, workdir, help } = parsed.values;
  return {
    action,
    json: json === true,
    workdir: typeof workdir === 'string' ? workdir : undefined,
    help: help === true,
  };
}
