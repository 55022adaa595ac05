const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const INTERVAL_MS = 100;

/** A one-line spinner with the elapsed seconds, drawn on a terminal while the model thinks. */
export interface Spinner {
  /** Show it (again) with `label`; the clock starts at the first start of the turn. */
  start(label: string): void;
  /** Take it off the line, so what is written next starts on a clean line. */
  stop(): void;
}

/**
 * A spinner on `stream`, drawn only when it is a terminal (otherwise every call does nothing).
 * It draws its own line and clears it with `\r` and erase-line, never anything else.
 *
 * @example
 * const spinner = createSpinner(process.stderr);
 * spinner.start('thinking'); // ⠋ thinking 0.0s
 * spinner.stop();
 */
export function createSpinner(stream: NodeJS.WriteStream, now: () => number = Date.now): Spinner {
  if (!stream.isTTY) return { start: () => {}, stop: () => {} };
  let timer: NodeJS.Timeout | undefined;
  let began: number | undefined;
  let frame = 0;
  let label = '';
  const draw = () => {
    const seconds = ((now() - (began ?? now())) / 1000).toFixed(1);
    stream.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${label} ${seconds}s`);
    frame += 1;
  };
  return {
    start(text) {
      label = text;
      began ??= now();
      if (timer) return;
      draw();
      timer = setInterval(draw, INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = undefined;
      stream.write('\r\x1b[2K');
    },
  };
}
