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

/** The process streams. */
export function processOutput(): Output {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: Boolean(process.stderr.isTTY) && process.env.NO_COLOR === undefined,
    interactive: Boolean(process.stdout.isTTY),
    ...(process.stdin.isTTY && process.stdout.isTTY
      ? { ask: async (question: string) => (await import('./line-prompt.js')).askLine(question) }
      : {}),
  };
}
