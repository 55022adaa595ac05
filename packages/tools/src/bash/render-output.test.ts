import { describe, expect, it } from 'vitest';
import { OutputBuffer, type OutputSnapshot } from './output-buffer.js';
import {
  decodeStream,
  fitStream,
  renderBashOutput,
  reportedExitCode,
  sanitizeTerminalText,
} from './render-output.js';

function snap(data: string | Buffer, limit = 1024 * 1024): OutputSnapshot {
  const buffer = new OutputBuffer(limit);
  buffer.push(typeof data === 'string' ? Buffer.from(data) : data);
  return buffer.snapshot();
}

const empty = snap('');

describe('reportedExitCode', () => {
  it('reports 124 for a timeout, the exit code, or 128 + signal number', () => {
    expect(reportedExitCode({ code: null, signal: 'SIGTERM', timedOut: true })).toBe(124);
    expect(reportedExitCode({ code: 3, signal: null, timedOut: false })).toBe(3);
    expect(reportedExitCode({ code: null, signal: 'SIGKILL', timedOut: false })).toBe(137);
    expect(reportedExitCode({ code: null, signal: 'SIGSEGV', timedOut: false })).toBe(139);
  });
});

describe('sanitizeTerminalText', () => {
  it('strips colour (CSI) and title (OSC) sequences', () => {
    expect(sanitizeTerminalText('\u001b[1;31mred\u001b[0m plain')).toBe('red plain');
    expect(sanitizeTerminalText('\u001b]0;pwn\u0007ok')).toBe('ok');
    expect(sanitizeTerminalText('\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(sanitizeTerminalText('\u001b(Bx\u001b=y')).toBe('xy');
    expect(sanitizeTerminalText('\u009b31mz')).toBe('z');
  });

  it('drops NUL and other control characters but keeps tabs and newlines', () => {
    expect(sanitizeTerminalText('a\u0000b\u0007c\td\ne\u007f')).toBe('abc\td\ne');
  });

  it('shows carriage-return progress lines as their final state', () => {
    expect(sanitizeTerminalText('10%\r50%\r100%\r\ndone\r\n')).toBe('100%\ndone\n');
  });

  it('removes an unterminated OSC only up to the end of its line', () => {
    expect(sanitizeTerminalText('a\u001b]0;title\nnext')).toBe('a\nnext');
  });
});

describe('decodeStream', () => {
  it('turns invalid UTF-8 into replacement characters', () => {
    const decoded = decodeStream(snap(Buffer.from([0xff, 0xfe, 0x6f, 0x6b])));
    expect(decoded.head).toBe('\uFFFD\uFFFDok');
    expect(decoded.gapBytes).toBe(0);
  });

  it('cuts head and tail at character boundaries so the gap adds no replacement characters', () => {
    // 'é' is 2 bytes: a 7-byte limit splits characters at both ends of the gap.
    const decoded = decodeStream(snap('éééééééééé', 7));
    expect(decoded.head).not.toContain('\uFFFD');
    expect(decoded.tail).not.toContain('\uFFFD');
    expect(
      Buffer.byteLength(decoded.head) + Buffer.byteLength(decoded.tail) + decoded.gapBytes,
    ).toBe(20);
  });
});

describe('fitStream', () => {
  it('returns short text unchanged and untruncated', () => {
    expect(fitStream({ head: 'abc', tail: '', gapBytes: 0 }, 10)).toEqual({
      text: 'abc',
      truncated: false,
      omittedBytes: 0,
    });
  });

  it('never exceeds the budget and counts the omitted bytes exactly', () => {
    const text = 'x'.repeat(1000);
    for (const budget of [40, 41, 100, 999]) {
      const fitted = fitStream({ head: text, tail: '', gapBytes: 0 }, budget);
      expect(fitted.text.length).toBeLessThanOrEqual(budget);
      expect(fitted.truncated).toBe(true);
      const shown = fitted.text.replace(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/, '');
      expect(shown.length + fitted.omittedBytes).toBe(1000);
      expect(fitted.text).toContain(`[... ${fitted.omittedBytes} bytes omitted ...]`);
    }
  });

  it('adds the buffer gap to the omitted count and keeps both ends', () => {
    const fitted = fitStream({ head: 'HEAD', tail: 'TAIL', gapBytes: 5000 }, 100);
    expect(fitted.text).toBe('HEAD\n[... 5000 bytes omitted ...]\nTAIL');
    expect(fitted.truncated).toBe(true);
  });

  it('does not split a surrogate pair at the cut', () => {
    const fitted = fitStream({ head: '😀'.repeat(100), tail: '', gapBytes: 0 }, 61);
    expect(fitted.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(fitted.text).not.toMatch(/(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});

describe('renderBashOutput', () => {
  it('prints the header, then stdout and stderr sections', () => {
    const { content } = renderBashOutput({
      exitCode: 0,
      timedOut: false,
      stdout: snap('hello\n'),
      stderr: snap('warn\n'),
    });
    expect(content).toBe(
      'exit_code=0 stdout_truncated=false stderr_truncated=false\nstdout:\nhello\nstderr:\nwarn',
    );
  });

  it('omits an empty section and says when there was no output at all', () => {
    expect(
      renderBashOutput({ exitCode: 1, timedOut: false, stdout: empty, stderr: snap('boom') })
        .content,
    ).toBe('exit_code=1 stdout_truncated=false stderr_truncated=false\nstderr:\nboom');
    expect(
      renderBashOutput({ exitCode: 0, timedOut: false, stdout: empty, stderr: empty }).content,
    ).toBe('exit_code=0 stdout_truncated=false stderr_truncated=false\n(no output)');
  });

  it('marks a timeout with exit_code=124 timed_out=true and shows notes under the header', () => {
    const { content } = renderBashOutput({
      exitCode: 124,
      timedOut: true,
      stdout: snap('partial'),
      stderr: empty,
      notes: ['note: timed out'],
    });
    expect(content.split('\n').slice(0, 2)).toEqual([
      'exit_code=124 timed_out=true stdout_truncated=false stderr_truncated=false',
      'note: timed out',
    ]);
  });

  it('shows the signal that killed the shell', () => {
    const { content } = renderBashOutput({
      exitCode: 137,
      timedOut: false,
      signal: 'SIGKILL',
      stdout: empty,
      stderr: empty,
    });
    expect(content.startsWith('exit_code=137 signal=SIGKILL ')).toBe(true);
  });

  it('keeps the whole result within maxChars and flags the truncated stream', () => {
    const rendered = renderBashOutput({
      exitCode: 0,
      timedOut: false,
      stdout: snap('o'.repeat(100_000)),
      stderr: snap('short error'),
      maxChars: 30_000,
    });
    expect(rendered.content.length).toBeLessThanOrEqual(30_000);
    expect(rendered.stdoutTruncated).toBe(true);
    expect(rendered.stderrTruncated).toBe(false);
    expect(rendered.content).toContain('stdout_truncated=true stderr_truncated=false');
    expect(rendered.content.endsWith('stderr:\nshort error')).toBe(true);
  });

  it('splits the budget when both streams are long', () => {
    const rendered = renderBashOutput({
      exitCode: 0,
      timedOut: false,
      stdout: snap('o'.repeat(50_000)),
      stderr: snap('e'.repeat(50_000)),
      maxChars: 1_000,
    });
    expect(rendered.content.length).toBeLessThanOrEqual(1_000);
    expect(rendered.stdoutTruncated && rendered.stderrTruncated).toBe(true);
    const [, out = '', err = ''] = rendered.content.split(/stdout:\n|stderr:\n/);
    expect(Math.abs(out.length - err.length)).toBeLessThan(50);
  });

  it.each([
    ['stdout', 'stderr'],
    ['stderr', 'stdout'],
  ])('replaces binary %s with a note and keeps the text of %s as it is', (binary, textual) => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 167 + 13) % 256));
    const streams = { [binary]: snap(bytes), [textual]: snap('compiled 3 files\n') };
    const { content, stdoutTruncated, stderrTruncated } = renderBashOutput({
      exitCode: 0,
      timedOut: false,
      stdout: streams.stdout as OutputSnapshot,
      stderr: streams.stderr as OutputSnapshot,
    });
    expect(content).toContain(
      `${binary}:\n[binary output: 4096 bytes, not shown; starts with 0d b4 5b 02 a9 50 f7 9e 45 ec 93 3a e1 88 2f d6 …]`,
    );
    expect(content).toContain(`${textual}:\ncompiled 3 files`);
    expect(content).not.toContain('\uFFFD');
    expect([stdoutTruncated, stderrTruncated]).toEqual([false, false]);
  });

  it('strips escape sequences from what the model sees', () => {
    const { content } = renderBashOutput({
      exitCode: 0,
      timedOut: false,
      stdout: snap(Buffer.from('\xff\xfe\x1b]0;pwn\x07ok', 'latin1')),
      stderr: empty,
    });
    expect(content).toContain('\uFFFD\uFFFDok');
    expect(content).not.toContain('\u001b');
    expect(content).not.toContain('pwn');
  });
});
