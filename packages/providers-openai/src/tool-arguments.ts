import type { JsonObject } from '@tiny-claw/core';
import { text } from './strings.js';

/**
 * Decoded arguments: always an object; `argumentsError` says why the raw value was unusable.
 *
 * @example
 * const decoded: DecodedArguments = { arguments: {}, argumentsError: 'the arguments must be a JSON object, not null' };
 */
export interface DecodedArguments {
  arguments: JsonObject;
  argumentsError?: string;
}

/** How much of a bad raw value is quoted back to the model. */
const RAW_PREVIEW_CHARS = 200;

/**
 * Decode a tool call's raw `arguments`. Never throws: anything unusable becomes `{}` plus an
 * `argumentsError`, which the executor answers with `failed to parse tool arguments: …`.
 * Accepted: a JSON string of an object, an empty string or a missing value (`{}`, as some servers
 * send for tools without parameters), and an already-decoded object.
 *
 * @example
 * decodeToolArguments('{"path":"a"}'); // { arguments: { path: 'a' } }
 * decodeToolArguments('[]').argumentsError; // 'the arguments must be a JSON object, not an array'
 */
export function decodeToolArguments(raw: unknown): DecodedArguments {
  if (raw === undefined || raw === null) return { arguments: {} };
  if (typeof raw === 'string') {
    if (raw.trim() === '') return { arguments: {} };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return failure(text.argsInvalidJson(parseErrorText(error), preview(raw)));
    }
    return checkObject(value);
  }
  return checkObject(raw);
}

function checkObject(value: unknown): DecodedArguments {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return failure(text.argsNotObject(kindOf(value)));
  }
  // A number like 1e309 parses to Infinity, which a tool would silently misuse.
  if (hasNonFiniteNumber(value)) return failure(text.argsNonFinite);
  return { arguments: value as JsonObject };
}

function failure(argumentsError: string): DecodedArguments {
  return { arguments: {}, argumentsError };
}

/** Iterative, so 10,000-deep nesting cannot overflow the stack. */
function hasNonFiniteNumber(root: object): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'number' && !Number.isFinite(value)) return true;
    if (typeof value === 'object' && value !== null) {
      for (const child of Object.values(value)) stack.push(child);
    }
  }
  return false;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}

function parseErrorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function preview(raw: string): string {
  const oneLine = raw.replace(/\s+/g, ' ');
  return oneLine.length <= RAW_PREVIEW_CHARS
    ? oneLine
    : `${oneLine.slice(0, RAW_PREVIEW_CHARS)}… (${raw.length} chars)`;
}
