/**
 * @tiny-claw/core/testing — providers for demos, bug reports and tests without an API key: `echo`
 * answers with the last user message, `scripted` replays a script of turns (text and tool calls).
 *
 * @example
 * import { createAgent } from '@tiny-claw/core';
 * import { ScriptedProvider } from '@tiny-claw/core/testing';
 * const agent = createAgent({ provider: new ScriptedProvider({ turns: [{ text: 'hi' }] }) });
 *
 * @module
 */
export { ECHO_READY_TEXT, EchoProvider } from './echo-provider.js';
export { testSession } from './fakes.js';
export { loadScript, parseScript, type Script, type ScriptedTurn, scriptSchema } from './script.js';
export { SCRIPT_EXHAUSTED_TEXT, ScriptedProvider } from './scripted-provider.js';
