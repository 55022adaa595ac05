import { createRequire } from 'node:module';

/** The CLI's version, read from its package.json (one level above both src/ and dist/). */
export function cliVersion(): string {
  const manifest = createRequire(import.meta.url)('../package.json') as { version: string };
  return manifest.version;
}
