const marker = Symbol.for('tiny-claw.error');

/** Machine-readable category of a {@link TinyClawError}. */
export type ErrorCode =
  | 'runtime'
  | 'configuration'
  | 'provider'
  | 'tool'
  | 'cancelled'
  | 'state'
  | 'approval'
  | 'input';

/**
 * Base class of every error tiny-claw throws on purpose. `code` says what kind of problem it is;
 * front ends decide what to do with it (the CLI maps it to an exit code).
 *
 * @example
 * if (TinyClawError.isInstance(err) && err.code === 'configuration') console.error(err.message);
 */
export class TinyClawError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;

  constructor(message: string, options: { cause?: unknown; code?: ErrorCode } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'runtime';
  }

  /** True for any tiny-claw error, even one thrown by a second copy of this package. */
  static isInstance(value: unknown): value is TinyClawError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/**
 * A setting, flag or file the user controls is invalid.
 *
 * @example
 * throw new ConfigurationError('maxSteps must be an integer of at least 1, got 0.');
 */
export class ConfigurationError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'configuration' });
  }
}

/**
 * What a run was asked to work on cannot be accepted (a prompt over the size limit, say); nothing
 * was sent or stored. The caller has to change the input, not a setting.
 *
 * @example
 * throw new InputError('the prompt is 2.0 MiB, over the 1 MiB limit: shorten it.');
 */
export class InputError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'input' });
  }
}

/** What kind of provider failure happened; the loop reacts to some kinds (e.g. compaction). */
export type ProviderErrorKind =
  | 'auth'
  | 'not_found'
  | 'bad_request'
  | 'context_length'
  | 'rate_limit'
  | 'server'
  | 'connection'
  | 'timeout'
  | 'incomplete_stream'
  | 'invalid_response'
  | 'unknown';

/**
 * A model provider failed. Messages never contain API keys.
 *
 * @example
 * throw new ProviderError('rate limited', { kind: 'rate_limit', status: 429, isRetryable: true });
 */
export class ProviderError extends TinyClawError {
  readonly isRetryable: boolean;
  readonly status: number | undefined;
  readonly kind: ProviderErrorKind;

  constructor(
    message: string,
    options: {
      cause?: unknown;
      isRetryable?: boolean;
      status?: number;
      kind?: ProviderErrorKind;
    } = {},
  ) {
    super(message, { cause: options.cause, code: 'provider' });
    this.isRetryable = options.isRetryable ?? false;
    this.status = options.status;
    this.kind = options.kind ?? 'unknown';
  }
}

/**
 * A tool could not run for a reason the model can act on.
 *
 * @example
 * throw new ToolError('the sandbox is not available');
 */
export class ToolError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'tool' });
  }
}

/**
 * A persisted state file is unreadable or could not be written.
 *
 * @example
 * throw new StateError('Could not read /state/x.json: EACCES');
 */
export class StateError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'state' });
  }
}

/**
 * The run was cancelled through its AbortSignal.
 *
 * @example
 * if (signal.aborted) throw new CancelledError();
 */
export class CancelledError extends TinyClawError {
  constructor(message = 'the run was cancelled', options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'cancelled' });
  }
}

/** Render any thrown value as a one-line message, without a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
