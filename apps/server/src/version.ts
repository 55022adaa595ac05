import { createRequire } from 'node:module';

/**
 * The server's version, read from its package.json (one level above both src/ and dist/).
 *
 * @example
 * serverVersion(); // '0.1.0'
 */
export function serverVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}
