import { createInterface } from 'node:readline';

// Lines typed ahead (or pasted several at once) that arrived while an earlier question was being
// answered: readline hands over a whole chunk at a time, and the next question must not lose them.
const typedAhead: string[] = [];

/**
 * Ask one question on stderr and read one line from stdin (a terminal). Resolves to the line, or
 * undefined when the person pressed Ctrl-C or Ctrl-D, or stdin ended: the caller treats that as
 * "no answer" and leaves whatever was asked about as it was. The terminal is given back (line
 * mode, Ctrl-C as a signal) as soon as the answer is in.
 *
 * @example
 * const answer = await askLine('Approve? [y]es / [n]o / n <reason>: ');
 */
export function askLine(question: string): Promise<string | undefined> {
  const ahead = typedAhead.shift();
  if (ahead !== undefined) {
    process.stderr.write(`${question}${ahead}\n`);
    return Promise.resolve(ahead);
  }
  if (process.stdin.readableEnded) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const rl = createInterface({
      input: process.stdin,
      output: process.stderr,
      // Line editing writes escape sequences, so only when the question goes to a terminal too.
      terminal: Boolean(process.stdin.isTTY && process.stderr.isTTY),
      historySize: 0,
    });
    let answered = false;
    const answer = (line: string | undefined) => {
      if (answered) {
        if (line !== undefined) typedAhead.push(line);
        return;
      }
      answered = true;
      // readline hands over every line of a chunk in one synchronous pass: closing once that pass
      // is over keeps the lines after this one, and closing before the caller can ask again keeps
      // this interface from pausing stdin under the next one.
      queueMicrotask(() => {
        rl.close();
        resolve(line);
      });
    };
    rl.on('line', answer);
    // In a terminal readline reads Ctrl-C as a key and reports it here instead of as a signal.
    rl.on('SIGINT', () => {
      process.stderr.write('^C\n');
      answer(undefined);
    });
    rl.on('close', () => answer(undefined));
    rl.setPrompt(question);
    rl.prompt();
  });
}
