export { ECHO_READY_TEXT, EchoProvider } from './echo-provider.js';
export { InMemoryMemory, slowTool, testSession } from './fakes.js';
export { loadScript, parseScript, type Script, type ScriptedTurn, scriptSchema } from './script.js';
export { SCRIPT_EXHAUSTED_TEXT, ScriptedProvider } from './scripted-provider.js';
