import type { LogFields, Logger } from '@tiny-claw/core';
import { scrubServerText } from './scrub-server-text.js';

/**
 * A logger that scrubs every line — its message and each text field — of the given secrets (and
 * of anything shaped like a credential) before passing it on, setting names left readable, so an
 * error message quoting a request never puts the app secret, the encrypt key or the verification
 * token into the log.
 *
 * @example
 * const logger = scrubbingLogger(createStderrLogger('info'), [appSecret, encryptKey]);
 */
export function scrubbingLogger(logger: Logger, knownSecrets: readonly string[]): Logger {
  const scrub = (message: string) => scrubServerText(message, knownSecrets);
  const scrubFields = (fields: LogFields | undefined): LogFields | undefined => {
    if (fields === undefined) return undefined;
    return Object.fromEntries(
      Object.entries(fields).map(([key, value]) => [
        key,
        typeof value === 'string' ? scrub(value) : value,
      ]),
    );
  };
  return {
    debug: (message, fields) => logger.debug(scrub(message), scrubFields(fields)),
    info: (message, fields) => logger.info(scrub(message), scrubFields(fields)),
    warn: (message, fields) => logger.warn(scrub(message), scrubFields(fields)),
    error: (message, fields) => logger.error(scrub(message), scrubFields(fields)),
  };
}
