/** Where the CLI writes; injectable so tests can capture it. */
export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stderr is a colour-capable terminal. */
  color: boolean;
  /** Whether stdout is an interactive terminal (answers stream there live). */
  interactive: boolean;
}

/** The process streams. */
export function processOutput(): Output {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    color: Boolean(process.stderr.isTTY) && process.env.NO_COLOR === undefined,
    interactive: Boolean(process.stdout.isTTY),
  };
}
