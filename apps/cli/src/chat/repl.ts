import type { Output } from '../output.js';
import type { ChatArgs, ChatMode } from './chat-args.js';
import { chatText } from './chat-strings.js';
import { createLineEditor, type LineEditor } from './line-editor.js';

/** What the loop needs from the part of the chat that is loaded after the prompt is shown. */
export interface ChatEngine {
  /** Run one prompt as a turn of the current session. */
  turn(prompt: string): Promise<void>;
  /** Run a slash command; 'exit' ends the chat. */
  command(line: string): Promise<'exit' | undefined>;
  close(): Promise<void>;
}

/** The chat's state the engine and the slash commands change. */
export interface ChatState {
  session: string;
  mode: ChatMode;
  editor: LineEditor;
  out: Output;
  args: ChatArgs;
  /** The workdir, once the settings are loaded (Tab completes @path mentions from it). */
  workdir?: string;
}

/**
 * The chat loop: the prompt is on screen before anything heavy loads (the agent, the providers
 * and the settings are loaded behind it, and the first turn waits for them), then each line read
 * is a turn or a slash command until Ctrl-D, Ctrl-C twice at an empty prompt, or /exit. A problem
 * loading the agent (a bad setting, a missing key) ends the chat with that error.
 *
 * @example
 * return await chatLoop(parseChatArgs([]), processOutput());
 */
export async function chatLoop(args: ChatArgs, out: Output): Promise<number> {
  const state: Partial<ChatState> & { engine?: ChatEngine } = {
    session: args.session ?? 'default',
    mode: args.mode,
    out,
    args,
  };
  const editor = createLineEditor({
    input: process.stdin,
    output: process.stderr,
    exitHint: chatText.exitHint,
    continuation: chatText.continuation,
    complete: async (line) => (await import('./completion.js')).completeLine(line, state.workdir),
  });
  state.editor = editor;
  // Ctrl-C reaches the process as a signal only while a turn runs (the editor reads it as a key
  // otherwise); the turn's own handler cancels it, and this one keeps the chat alive in between.
  const keepAlive = () => {};
  process.on('SIGINT', keepAlive);
  let failed: unknown;
  // The agent loads once the prompt is drawn (the loop's first read draws it synchronously).
  const loading = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      // As the executable does for the other commands: WebAssembly (fetch's HTTP parser, the
      // bash grammar) on V8's baseline compiler only, which saves its optimising tier's memory.
      (await import('node:v8')).setFlagsFromString('--liftoff-only');
      return import('./engine.js');
    })
    .then(({ startEngine }) => startEngine(state as ChatState))
    .then((engine) => {
      state.engine = engine;
      return engine;
    });
  const loadFailure = new Promise<never>((_resolve, reject) => {
    loading.catch((error: unknown) => {
      failed = error;
      reject(error);
    });
  });
  loadFailure.catch(() => {});
  try {
    for (;;) {
      const line = await Promise.race([editor.read(chatText.prompt), loadFailure]);
      if (line === undefined) break;
      const engine = state.engine ?? (await waitForEngine(loading, loadFailure));
      if (line.trimStart().startsWith('/')) {
        if ((await engine.command(line.trim())) === 'exit') break;
        continue;
      }
      await engine.turn(line);
    }
  } finally {
    process.off('SIGINT', keepAlive);
    editor.close();
    if (failed === undefined) await (await loading.catch(() => undefined))?.close();
  }
  return 0;
}

/** The first turn typed before the agent is loaded waits for it, with a spinner. */
async function waitForEngine(
  loading: Promise<ChatEngine>,
  loadFailure: Promise<never>,
): Promise<ChatEngine> {
  const { createSpinner } = await import('./spinner.js');
  const spinner = createSpinner(process.stderr);
  spinner.start(chatText.loading);
  try {
    return await Promise.race([loading, loadFailure]);
  } finally {
    spinner.stop();
  }
}
