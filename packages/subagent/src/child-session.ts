import { createHash, randomBytes } from 'node:crypto';
import type { SessionRef } from '@tiny-claw/core';

/** A session key is one directory name: at most this many bytes. */
const MAX_KEY_BYTES = 255;

/**
 * A fresh session for one explorer run under `parent`: key `parent-<parent key>-explore-<id>`
 * (the parent key is replaced by a hash of it when the whole would be too long for a directory
 * name), source `subagent`, the parent's workdir. Every call gives a new id, so two explorations
 * in one run never share a session or a memory file.
 *
 * @example
 * childSession(parent).key; // 'parent-cli-1a2b3c4d5e6f-default-explore-9f86d081884c'
 */
export function childSession(parent: SessionRef): SessionRef {
  const id = randomBytes(6).toString('hex');
  let parentPart = parent.key;
  const suffix = `-explore-${id}`;
  if (Buffer.byteLength(`parent-${parentPart}${suffix}`, 'utf8') > MAX_KEY_BYTES) {
    parentPart = createHash('sha256').update(parent.key).digest('hex').slice(0, 24);
  }
  return {
    key: `parent-${parentPart}${suffix}`,
    source: 'subagent',
    externalId: `${parent.key}:explore:${id}`,
    displayName: `explore:${parent.displayName}:${id}`,
    workdir: parent.workdir,
  };
}
