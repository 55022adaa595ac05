import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigurationError, validateSessionName } from '@tiny-claw/core';
import { traceText } from './trace-strings.js';
import { UsageError } from './usage-error.js';

/** `tiny-claw trace …`, validated. */
export type TraceArgs =
  | { action: 'help' }
  | { action: 'list'; session: string | undefined; json: boolean }
  | { action: 'show'; ref: string; session: string | undefined; json: boolean }
  | { action: 'view'; ref: string; session: string | undefined; out: string | undefined };

// Trace ids become file names: nothing that could walk out of a traces directory.
const TRACE_REF = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Parse the arguments after `tiny-claw trace`; throws {@link UsageError} (exit 2) for anything wrong.
 *
 * @example
 * parseTraceArgs(['show', 'last', '--session', 'debug', '--json']);
 * // { action: 'show', ref: 'last', session: 'debug', json: true }
 */
export function parseTraceArgs(argv: string[]): TraceArgs {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') return { action: 'help' };
  if (sub === undefined) throw new UsageError(traceText.needsSubcommand, 'trace');
  if (sub === 'list') {
    const { values, positionals } = parse(rest, {
      session: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    if (positionals.length > 0)
      throw new UsageError(traceText.listTakesNoArgs(positionals.join(' ')), 'trace');
    return { action: 'list', session: session(values.session), json: values.json === true };
  }
  if (sub === 'show') {
    const { values, positionals } = parse(rest, {
      session: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    return {
      action: 'show',
      ref: traceRef('show', positionals),
      session: session(values.session),
      json: values.json === true,
    };
  }
  if (sub === 'view') {
    const { values, positionals } = parse(rest, {
      session: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    });
    if (values.help) return { action: 'help' };
    if (values.out === '') throw new UsageError(traceText.emptyOption('--out'), 'trace');
    return {
      action: 'view',
      ref: traceRef('view', positionals),
      session: session(values.session),
      out: values.out,
    };
  }
  throw new UsageError(traceText.unknownSubcommand(sub), 'trace');
}

function parse<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // node:util's message is good; only its error-code prefix is noise for a person.
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''), 'trace');
  }
}

function traceRef(sub: string, positionals: string[]): string {
  const [ref, extra] = positionals;
  if (ref === undefined) throw new UsageError(traceText.needsRef(sub), 'trace');
  if (extra !== undefined)
    throw new UsageError(traceText.tooManyArgs(sub, positionals.slice(1).join(' ')), 'trace');
  if (!TRACE_REF.test(ref)) throw new UsageError(traceText.badRef(ref), 'trace');
  return ref;
}

function session(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name === '') throw new UsageError(traceText.emptyOption('--session'), 'trace');
  try {
    return validateSessionName(name);
  } catch (error) {
    if (error instanceof ConfigurationError)
      throw new UsageError(`--session: ${error.message}`, 'trace');
    throw error;
  }
}
