import { createInterface, type Interface, type Key } from 'node:readline';

/** What the chat reads from the keyboard, and how it gives the terminal to a running turn. */
export interface LineEditor {
  /**
   * Read one prompt: Enter sends; a line ending in `\`, Shift+Enter (Alt+Enter) or a bracketed
   * paste continues it over several lines. Resolves to the text, or undefined when the person
   * wants to leave: Ctrl-D, or Ctrl-C twice at an empty prompt.
   */
  read(prompt: string): Promise<string | undefined>;
  /** Ask one question (an approval); undefined for Ctrl-C or Ctrl-D: no answer. */
  ask(question: string): Promise<string | undefined>;
  /**
   * Hand the terminal to a turn: line mode, so Ctrl-C is a signal again (the turn's cancel
   * handler takes it) and nothing is read until the next {@link read} or {@link ask}.
   */
  release(): void;
  /** Print a line above the prompt being edited, keeping what was typed. */
  printAbove(text: string): void;
  /** Earlier prompts, oldest first, for Up/Down. */
  setHistory(lines: readonly string[]): void;
  close(): void;
}

/** What the editor needs: the streams, and the Tab completer. */
export interface LineEditorOptions {
  input: NodeJS.ReadStream;
  /** Where the prompt and the typed text are echoed (stderr: stdout holds only answers). */
  output: NodeJS.WriteStream;
  complete?: (line: string) => [string[], string] | Promise<[string[], string]>;
  /** Shown after the first Ctrl-C at an empty prompt. */
  exitHint: string;
  /** The prompt of a continuation line. */
  continuation: string;
}

const PASTE_ON = '\x1b[?2004h';
const PASTE_OFF = '\x1b[?2004l';
const SHIFT_ENTER = new Set(['\x1b\r', '\x1b\n', '\x1b[13;2u', '\x1b[27;2;13~']);
const HISTORY_SIZE = 500;

type Waiting =
  | { kind: 'read'; resolve: (text: string | undefined) => void }
  | { kind: 'ask'; resolve: (text: string | undefined) => void };

/**
 * A line editor on `node:readline` for the chat. Bracketed paste is switched on while it runs, so
 * a pasted block arrives as one prompt. The readline interface is made again after Ctrl-D at an
 * approval question (which only means "no answer").
 *
 * @example
 * const editor = createLineEditor({ input: process.stdin, output: process.stderr, exitHint, continuation: '… ' });
 * const text = await editor.read('› ');
 */
export function createLineEditor(options: LineEditorOptions): LineEditor {
  const { input, output } = options;
  let rl: Interface | undefined;
  let history: string[] = [];
  let waiting: Waiting | undefined;
  let lines: string[] = [];
  // The lines as typed (a continued one with its `\`), as readline put them in its history.
  let typedLines: string[] = [];
  let pasting = false;
  let newlineKey = false;
  let armedExit = false;
  let prompt = '';

  const pasteOff = () => {
    if (output.isTTY) output.write(PASTE_OFF);
  };

  const settle = (text: string | undefined) => {
    const current = waiting;
    waiting = undefined;
    lines = [];
    typedLines = [];
    current?.resolve(text);
  };

  const onKeypress = (sequence: string | undefined, key: Key | undefined) => {
    if (key?.name === 'paste-start') pasting = true;
    else if (key?.name === 'paste-end') pasting = false;
    else if (SHIFT_ENTER.has(key?.sequence ?? sequence ?? '') && waiting?.kind === 'read') {
      // readline ignores these keys; they end the line here, as a continuation.
      newlineKey = true;
      queueMicrotask(() => rl?.write(null, { name: 'return' }));
    }
  };

  const onLine = (line: string) => {
    if (waiting === undefined) return;
    if (waiting.kind === 'ask') {
      // An answer to a question is not a prompt to recall with Up.
      const recalled = (rl as (Interface & { history?: string[] }) | undefined)?.history;
      if (recalled?.[0] === line) recalled.shift();
      settle(line);
      return;
    }
    armedExit = false;
    const continued = pasting || newlineKey || line.endsWith('\\');
    newlineKey = false;
    typedLines.push(line);
    if (continued) {
      lines.push(line.endsWith('\\') && !pasting ? line.slice(0, -1) : line);
      rl?.setPrompt(options.continuation);
      rl?.prompt();
      return;
    }
    const text = [...lines, line].join('\n');
    if (lines.length > 0) recallWhole(typedLines, text);
    typedLines = [];
    if (text.trim() === '') {
      lines = [];
      rl?.setPrompt(prompt);
      rl?.prompt();
      return;
    }
    settle(text);
  };

  /** Up recalls a prompt of several lines as one entry, as it was sent. */
  const recallWhole = (parts: readonly string[], text: string) => {
    const history = (rl as (Interface & { history?: string[] }) | undefined)?.history;
    if (!history) return;
    for (const part of [...parts].reverse()) {
      if (history[0] === part) history.shift();
    }
    history.unshift(text);
  };

  const onInterrupt = () => {
    if (waiting === undefined) return;
    if (waiting.kind === 'ask') {
      output.write('^C\n');
      settle(undefined);
      return;
    }
    const typed = (rl?.line ?? '') !== '' || lines.length > 0;
    if (!typed && armedExit) {
      output.write('\n');
      settle(undefined);
      return;
    }
    // The first Ctrl-C drops what was typed; at an empty prompt it says how to leave.
    armedExit = !typed;
    lines = [];
    typedLines = [];
    rl?.write(null, { ctrl: true, name: 'e' });
    rl?.write(null, { ctrl: true, name: 'u' });
    output.write(typed ? '^C\n' : `^C\n${options.exitHint}\n`);
    rl?.setPrompt(prompt);
    rl?.prompt();
  };

  const open = (): Interface => {
    if (rl) return rl;
    const created = createInterface({
      input,
      output,
      terminal: Boolean(input.isTTY && output.isTTY),
      history: [...history].reverse(),
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      ...(options.complete ? { completer: callbackCompleter(options.complete) } : {}),
    } as Parameters<typeof createInterface>[0]);
    created.on('line', onLine);
    created.on('SIGINT', onInterrupt);
    created.on('close', () => {
      if (rl === created) rl = undefined;
      input.off('keypress', onKeypress);
      // Ctrl-D or the end of input: leave (at the prompt) or no answer (at a question).
      if (waiting?.kind === 'read') output.write('\n');
      settle(undefined);
    });
    input.prependListener('keypress', onKeypress);
    if (output.isTTY) {
      output.write(PASTE_ON);
      // Quitting at once (a second Ctrl-C during a turn) must not leave the shell in paste mode.
      process.off('exit', pasteOff);
      process.once('exit', pasteOff);
    }
    rl = created;
    return created;
  };

  const wait = (kind: Waiting['kind'], text: string): Promise<string | undefined> => {
    if (input.readableEnded) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const line = open();
      waiting = { kind, resolve };
      lines = [];
      if (kind === 'read') prompt = text;
      line.setPrompt(text);
      if (input.isTTY) input.setRawMode(true);
      line.resume();
      line.prompt();
    });
  };

  return {
    read: (text) => wait('read', text),
    ask: (question) => wait('ask', question),
    release: () => {
      rl?.pause();
      if (input.isTTY) input.setRawMode(false);
    },
    printAbove: (text) => {
      if (!rl || waiting === undefined || !output.isTTY) {
        output.write(text.endsWith('\n') ? text : `${text}\n`);
        return;
      }
      output.write(`\r\x1b[2K${text.endsWith('\n') ? text : `${text}\n`}`);
      rl.prompt(true);
    },
    setHistory: (earlier) => {
      history = earlier.slice(-HISTORY_SIZE);
      const live = rl as (Interface & { history?: string[] }) | undefined;
      if (live?.history) live.history.splice(0, live.history.length, ...[...history].reverse());
    },
    close: () => {
      pasteOff();
      process.off('exit', pasteOff);
      const current = rl;
      rl = undefined;
      waiting = undefined;
      current?.close();
    },
  };
}

/** readline's callback form of a completer that may answer later. */
function callbackCompleter(
  complete: NonNullable<LineEditorOptions['complete']>,
): (line: string, callback: (error: Error | null, result?: [string[], string]) => void) => void {
  return (line, callback) => {
    Promise.resolve()
      .then(() => complete(line))
      .then(
        (result) => callback(null, result),
        () => callback(null, [[], line]),
      );
  };
}
