import type { Logger } from '@tiny-claw/core';
import { scrubServerText } from '../server/scrub-server-text.js';

/** The logger shape the Feishu SDK calls: each method gets the SDK's arguments as one array. */
export interface SdkLogger {
  error: (...msg: unknown[]) => void;
  warn: (...msg: unknown[]) => void;
  info: (...msg: unknown[]) => void;
  debug: (...msg: unknown[]) => void;
  trace: (...msg: unknown[]) => void;
}

const MAX_LINE_CHARS = 600;

/**
 * Route the SDK's log calls to our logger as single lines with every secret scrubbed: the SDK logs
 * whole HTTP errors, whose request data can hold the app secret (a failed token request) or a
 * message's text, so nothing it says is written as it is.
 *
 * @example
 * new lark.Client({ appId, appSecret, logger: sdkLogger(logger, [appSecret, encryptKey]) });
 */
export function sdkLogger(logger: Logger, knownSecrets: readonly string[]): SdkLogger {
  const line = (parts: unknown[]) => {
    const text = parts.flat().map(describe).join(' ');
    const cut = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
    return `feishu sdk: ${scrubServerText(cut.replace(/\s+/g, ' '), knownSecrets)}`;
  };
  return {
    error: (...msg) => logger.error(line(msg)),
    warn: (...msg) => logger.warn(line(msg)),
    info: (...msg) => logger.info(line(msg)),
    debug: (...msg) => logger.debug(line(msg)),
    trace: (...msg) => logger.debug(line(msg)),
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
