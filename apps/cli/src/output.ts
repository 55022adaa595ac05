import { terminalSafe } from './terminal-text.js';

/** Where the CLI writes; injectable so tests can capture it. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a colour-capable terminal. */
  color: boolean;
  /** Whether stdout is an interactive terminal (answers stream there live). */
  interactive: boolean;
  /**
   * Ask a person one question and read one line, or undefined for no answer (Ctrl-C, Ctrl-D, end
   * of input). Present only when stdin and stdout are both terminals: without it, nothing waits
   * for a person.
   */
  ask?: (question: string) => Promise<string | undefined>;
}

/**
 * The process streams. A stream that is a terminal gets every write through
 * {@link terminalSafe}: nothing but tiny-claw's own colours reaches it as an escape sequence,
 * whoever wrote the text. A stream that is not a terminal (a pipe, a file) gets the bytes as they
 * are, so `tiny-claw run … > answer.txt` keeps the answer exactly as the model wrote it.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2), processOutput());
 */
export function processOutput(): Output {
  return {
    stdout: writer(process.stdout),
    stderr: writer(process.stderr),
    color: Boolean(process.stderr.isTTY) && process.env.NO_COLOR === undefined,
    interactive: Boolean(process.stdout.isTTY),
    ...(process.stdin.isTTY && process.stdout.isTTY
      ? { ask: async (question: string) => (await import('./line-prompt.js')).askLine(question) }
      : {}),
  };
}

function writer(stream: NodeJS.WriteStream): (text: string) => void {
  // A reader that went away (a closed pipe, a terminal hung up — SIGHUP) must not crash the
  // process half-way through cancelling a run: its commands still have to be stopped and its
  // trace written. Anything else is as fatal as it would be without this listener.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
  });
  return stream.isTTY
    ? (text) => void stream.write(terminalSafe(text))
    : (text) => void stream.write(text);
}
