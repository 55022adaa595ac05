import type { JsonObject } from '@tiny-claw/core';

/** Keywords the providers refuse at the top of a tool's parameters (they want one plain object). */
const TOP_LEVEL_REFUSED = ['anyOf', 'oneOf', 'allOf', 'not', 'enum', 'const'] as const;

/**
 * A server's input schema as the parameters both providers accept, and the description to send
 * with it. The schema is kept as the server wrote it (nested `$defs`, formats, descriptions)
 * except what the providers refuse at the top level: `$schema` is dropped, `type` is `object`,
 * `properties` is present, and a top-level combinator (`anyOf`, `oneOf`, …) moves into the
 * description as JSON, so no constraint is lost in silence; the server still checks the arguments.
 *
 * @example
 * toToolParameters({ type: 'object', properties: { a: { type: 'string' } }, $schema: 'x' }, 'Echo');
 * // { parameters: { type: 'object', properties: { a: { type: 'string' } } }, description: 'Echo' }
 */
export function toToolParameters(
  inputSchema: Record<string, unknown>,
  description: string,
): { parameters: JsonObject; description: string } {
  const { $schema: _ignored, ...rest } = inputSchema;
  const parameters: Record<string, unknown> = { ...rest, type: 'object' };
  if (
    typeof parameters.properties !== 'object' ||
    parameters.properties === null ||
    Array.isArray(parameters.properties)
  ) {
    parameters.properties = {};
  }
  const moved: Record<string, unknown> = {};
  for (const key of TOP_LEVEL_REFUSED) {
    if (key in parameters) {
      moved[key] = parameters[key];
      delete parameters[key];
    }
  }
  const note =
    Object.keys(moved).length === 0
      ? ''
      : `${description === '' ? '' : '\n\n'}The arguments must also satisfy this JSON schema: ${JSON.stringify(moved)}`;
  return { parameters: parameters as JsonObject, description: `${description}${note}` };
}
