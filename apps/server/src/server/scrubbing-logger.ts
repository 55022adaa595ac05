import type { Logger } from '@tiny-claw/core';
import { scrubServerText } from './scrub-server-text.js';

/**
 * A logger that scrubs every line of the given secrets (and of anything shaped like a credential)
 * before passing it on, setting names left readable, so an error message quoting a request never
 * puts the app secret, the encrypt key or the verification token into the log.
 *
 * @example
 * const logger = scrubbingLogger(createStderrLogger('info'), [appSecret, encryptKey]);
 */
export function scrubbingLogger(logger: Logger, knownSecrets: readonly string[]): Logger {
  const scrub = (message: string) => scrubServerText(message, knownSecrets);
  return {
    debug: (message) => logger.debug(scrub(message)),
    info: (message) => logger.info(scrub(message)),
    warn: (message) => logger.warn(scrub(message)),
    error: (message) => logger.error(scrub(message)),
  };
}
