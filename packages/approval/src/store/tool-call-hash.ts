import { createHash } from 'node:crypto';
import type { JsonObject } from '@tiny-claw/core';
import { stableJson } from '@tiny-claw/core/utils';

/**
 * The fingerprint an approval is bound to: sha256 (hex) of the stable JSON of the tool's name, its
 * parsed arguments and the workdir it runs in. Key order does not matter; any change to what would
 * execute (another command, another file, another workdir) gives another hash. The call id is left
 * out on purpose: it is an advisory label, not part of what runs.
 *
 * @example
 * toolCallHash({ name: 'bash', arguments: { command: 'ls' } }, '/repo'); // '3f1c…' (64 hex)
 */
export function toolCallHash(
  call: { name: string; arguments: JsonObject },
  workdir: string,
): string {
  const canonical = stableJson({ name: call.name, arguments: call.arguments, workdir });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
