import { describe, expect, it } from 'vitest';
import { createSpinner } from './spinner.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  const stream = { isTTY, write: (text: string) => written.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

describe('the spinner', () => {
  it('draws its label and the seconds since the turn began, and clears its line when stopped', () => {
    let now = 1_000;
    const { stream, written } = fakeStream(true);
    const spinner = createSpinner(stream, () => now);
    spinner.start('thinking');
    spinner.stop();
    now = 3_500;
    spinner.start('thinking');
    spinner.stop();
    spinner.stop();
    expect(written).toEqual([
      '\r\x1b[2K⠋ thinking 0.0s',
      '\r\x1b[2K',
      '\r\x1b[2K⠙ thinking 2.5s',
      '\r\x1b[2K',
    ]);
  });

  it.each([
    ['start', (s: ReturnType<typeof createSpinner>) => s.start('thinking')],
    ['stop', (s: ReturnType<typeof createSpinner>) => s.stop()],
  ])('writes nothing on a stream that is not a terminal (%s)', (_name, act) => {
    const { stream, written } = fakeStream(false);
    act(createSpinner(stream));
    expect(written).toEqual([]);
  });
});
