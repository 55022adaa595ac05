import type { ToolMetadata, ToolOutput } from '@tiny-claw/core';

/**
 * An error observation with its `error_type`, the shape every tool answers a refusal with.
 *
 * @example
 * return toolFailure('read path does not exist: a.txt', 'not_found');
 */
export function toolFailure(
  content: string,
  errorType: string,
  extra: ToolMetadata = {},
): ToolOutput {
  return { content, isError: true, metadata: { is_error: true, error_type: errorType, ...extra } };
}

/**
 * A byte count for people: `12 bytes`, `3.4 KiB`, `20.0 MB`.
 *
 * @example
 * formatSize(2048); // '2.0 KiB'
 */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
