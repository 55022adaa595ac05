const marker = Symbol.for('tiny-claw.error');

/** Machine-readable category of a {@link TinyClawError}. */
export type ErrorCode = 'runtime' | 'configuration' | 'provider' | 'tool' | 'cancelled' | 'state';

/**
 * Base class of every error tiny-claw throws on purpose. `exitCode` is what the CLI exits with.
 *
 * @example
 * if (TinyClawError.isInstance(err)) process.exitCode = err.exitCode;
 */
export class TinyClawError extends Error {
  readonly [marker] = true;
  readonly code: ErrorCode;
  readonly exitCode: number;

  constructor(
    message: string,
    options: { cause?: unknown; code?: ErrorCode; exitCode?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'runtime';
    this.exitCode = options.exitCode ?? 1;
  }

  /** True for any tiny-claw error, even one thrown by a second copy of this package. */
  static isInstance(value: unknown): value is TinyClawError {
    return typeof value === 'object' && value !== null && marker in value;
  }
}

/** A setting, flag or file the user controls is invalid. Exit code 78. */
export class ConfigurationError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'configuration', exitCode: 78 });
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

/** A model provider failed. Exit code 70. Messages never contain API keys. */
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
    super(message, { cause: options.cause, code: 'provider', exitCode: 70 });
    this.isRetryable = options.isRetryable ?? false;
    this.status = options.status;
    this.kind = options.kind ?? 'unknown';
  }
}

/** A tool could not run for a reason the model can act on. Exit code 71 when it escapes a run. */
export class ToolError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'tool', exitCode: 71 });
  }
}

/** A persisted state file is unreadable or could not be written. Exit code 1. */
export class StateError extends TinyClawError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'state', exitCode: 1 });
  }
}

/** The run was cancelled through its AbortSignal. Exit code 130. */
export class CancelledError extends TinyClawError {
  constructor(message = 'the run was cancelled', options: { cause?: unknown } = {}) {
    super(message, { ...options, code: 'cancelled', exitCode: 130 });
  }
}

/** Render any thrown value as a one-line message, without a stack trace. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
