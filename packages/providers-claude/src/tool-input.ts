import type { JsonObject } from '@tiny-claw/core';
import { text } from './strings.js';

/**
 * Deeper arguments are refused: no tool takes them, and recursive consumers would overflow.
 *
 * @example
 * decodeToolInput(nestedDeeperThan(MAX_ARGUMENT_DEPTH)).argumentsError; // 'arguments nest deeper than 256 levels'
 */
export const MAX_ARGUMENT_DEPTH = 256;

/**
 * A tool call's arguments as the loop wants them: an object, or `{}` plus the reason it is not.
 *
 * @example
 * const decoded: DecodedInput = { arguments: {}, argumentsError: 'invalid JSON (…)' };
 */
export type DecodedInput = { arguments: JsonObject; argumentsError?: string };

/**
 * Decode the assembled `input_json_delta` text of a streamed `tool_use` block. An empty string is
 * `{}` (a tool without parameters streams no deltas).
 *
 * @example
 * decodeToolInputJson('{"path":"a"}'); // { arguments: { path: 'a' } }
 * decodeToolInputJson('{"path":');     // { arguments: {}, argumentsError: 'invalid JSON (…)' }
 */
export function decodeToolInputJson(json: string): DecodedInput {
  if (json.trim() === '') return { arguments: {} };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { arguments: {}, argumentsError: text.argumentsNotJson((error as Error).message) };
  }
  return decodeToolInput(value);
}

/**
 * Check a decoded `tool_use.input`: it must be a plain object, at most {@link MAX_ARGUMENT_DEPTH}
 * deep, with only finite numbers (`1e309` parses to Infinity, which no schema should meet).
 * Anything else keeps the call but with `arguments: {}` and an `argumentsError`, so the model is
 * told instead of the run crashing.
 *
 * @example
 * decodeToolInput([1]); // { arguments: {}, argumentsError: 'arguments must be a JSON object, got an array' }
 */
export function decodeToolInput(value: unknown): DecodedInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { arguments: {}, argumentsError: text.argumentsNotObject(describeKind(value)) };
  }
  const problem = findProblem(value);
  if (problem) return { arguments: {}, argumentsError: problem };
  return { arguments: value as JsonObject };
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string ${JSON.stringify(value.slice(0, 80))}`;
  return `${typeof value} ${String(value)}`;
}

interface Visit {
  value: unknown;
  depth: number;
  key: string | number;
  parent: Visit | undefined;
}

// Iterative on purpose: a 10 000-deep value must not blow the stack of the check meant to refuse it.
// Paths are built only for the one bad value, so megabytes of arguments cost no string work.
function findProblem(root: object): string | undefined {
  const pending: Visit[] = [{ value: root, depth: 1, key: '$', parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      return text.argumentsNonFinite(pathOf(visit));
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_ARGUMENT_DEPTH) return text.argumentsTooDeep(MAX_ARGUMENT_DEPTH);
    const children: Iterable<[string | number, unknown]> = Array.isArray(value)
      ? value.entries()
      : Object.entries(value);
    for (const [key, child] of children) {
      pending.push({ value: child, depth: depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const parts: string[] = [];
  for (let at: Visit | undefined = visit; at !== undefined; at = at.parent) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : at.parent ? `.${at.key}` : at.key);
  }
  return parts.reverse().join('');
}
