import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import {
  ConfigurationError,
  errorMessage,
  type Logger,
  nullLogger,
  type Tracer,
} from '@tiny-claw/core';
import { keyedHash } from './capture/keyed-hash.js';
import { Redactor } from './capture/redactor.js';
import { ATTRIBUTE_MAX_CHARS } from './capture/sanitize.js';
import { loadTraceSalt } from './capture/trace-salt.js';
import { FileTraceRecorder, type TraceRecorder } from './recorder/trace-recorder.js';
import { EventTracer } from './tracer/event-tracer.js';
import { TreeTracer } from './tracer/tree-tracer.js';

/**
 * `TINY_CLAW_TRACE_MODE`: `off` records nothing, `metadata` (default) no content, `replay` redacted content.
 *
 * @example
 * const mode: TraceMode = process.env.TINY_CLAW_TRACE_MODE === 'off' ? 'off' : 'metadata';
 */
export type TraceMode = 'off' | 'metadata' | 'replay';

/**
 * Default of `TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS`.
 *
 * @example
 * createTracer({ stateDir, mode: 'replay', maxPayloadChars: DEFAULT_MAX_PAYLOAD_CHARS });
 */
export const DEFAULT_MAX_PAYLOAD_CHARS = 4000;

/**
 * Options of {@link createTracer}.
 *
 * @example
 * const options: CreateTracerOptions = { stateDir: '/home/me/.tiny-claw', mode: 'metadata' };
 */
export interface CreateTracerOptions {
  /** The state directory: traces go to `sessions/<key>/traces/`, the salt to `trace-salt`. */
  stateDir: string;
  mode: TraceMode;
  /** Longest string kept in a replay payload (default {@link DEFAULT_MAX_PAYLOAD_CHARS}). */
  maxPayloadChars?: number;
  /** Key for payload hashes and redaction fingerprints; default the per-install `<stateDir>/trace-salt`. */
  salt?: Uint8Array | string;
  /** Where finished traces go; default one {@link FileTraceRecorder} on `stateDir`. */
  recorders?: readonly TraceRecorder[];
  /** Receives `trace recorder failed: …` and salt warnings. */
  logger?: Logger;
}

/**
 * A tracer for `createAgent({ tracer })`: it follows each run's event stream, keeps the run as a
 * tree and writes it to `<stateDir>/sessions/<key>/traces/<traceId>.json` when the run finishes.
 * In mode `off` it records nothing. Creating it touches no disk; the salt is loaded when a payload
 * or secret is first hashed.
 *
 * @throws ConfigurationError when `maxPayloadChars` is not a positive integer.
 *
 * @example
 * const tracer = createTracer({
 *   stateDir: settings.stateDir,
 *   mode: settings.traceMode,
 *   maxPayloadChars: settings.traceMaxPayloadChars,
 *   logger,
 * });
 * // createFileStore from @tiny-claw/workspace: the traces it indexes are the ones under its dir.
 * const agent = createAgent({ provider, tracer, store: createFileStore(settings.stateDir) });
 */
export function createTracer(options: CreateTracerOptions): Tracer {
  if (options.mode === 'off') return offTracer;
  return new EventTracer(createSpanTracer({ ...options, mode: options.mode }));
}

/**
 * The span engine a tracer is built on, configured from the same options (the salt, redaction,
 * payload capture, recorders). For tests of the tree itself.
 *
 * @throws ConfigurationError when `maxPayloadChars` is not a positive integer.
 */
export function createSpanTracer(
  options: CreateTracerOptions & { mode: Exclude<TraceMode, 'off'> },
): TreeTracer {
  const logger = options.logger ?? nullLogger;
  const maxPayloadChars = options.maxPayloadChars ?? DEFAULT_MAX_PAYLOAD_CHARS;
  if (!Number.isInteger(maxPayloadChars) || maxPayloadChars < 1) {
    throw new ConfigurationError(
      `TINY_CLAW_TRACE_MAX_PAYLOAD_CHARS must be a positive integer, got ${maxPayloadChars}`,
    );
  }
  const given = toSalt(options.salt);
  // A KeyObject is prepared once; HMAC with it is cheaper than with raw bytes on every call.
  let salt: KeyObject | undefined = given ? createSecretKey(given) : undefined;
  const getSalt = (): KeyObject => {
    if (salt) return salt;
    try {
      salt = createSecretKey(loadTraceSalt(options.stateDir));
    } catch (error) {
      // Hashes then only correlate within this process, which is still private.
      logger.warn(`trace salt unavailable, using a temporary one: ${errorMessage(error)}`);
      salt = createSecretKey(randomBytes(32));
    }
    return salt;
  };
  const redactor = new Redactor((secret) => keyedHash(getSalt(), secret).slice(0, 8));
  return new TreeTracer({
    mode: options.mode,
    recorders: options.recorders ?? [new FileTraceRecorder(options.stateDir)],
    attributes: { redactor, maxStringChars: ATTRIBUTE_MAX_CHARS },
    payloads: () => ({
      mode: options.mode === 'replay' ? 'replay' : 'metadata',
      salt: getSalt(),
      sanitize: { redactor, maxStringChars: maxPayloadChars },
    }),
    logger,
  });
}

/** Mode `off`: follows nothing, writes nothing. */
const offTracer: Tracer = {
  onEvent: () => {},
  finishRun: async () => undefined,
};

function toSalt(salt: Uint8Array | string | undefined): Uint8Array | undefined {
  if (salt === undefined) return undefined;
  return typeof salt === 'string' ? Buffer.from(salt, 'utf8') : salt;
}
