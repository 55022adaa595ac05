import { describe, expect, it } from 'vitest';
import { binaryOutputNote, isBinaryStream, looksLikeBinaryOutput } from './binary-output.js';
import { OutputBuffer, type OutputSnapshot } from './output-buffer.js';

function snap(data: Buffer, limit = 1024 * 1024): OutputSnapshot {
  const buffer = new OutputBuffer(limit);
  buffer.push(data);
  return buffer.snapshot();
}

/** Deterministic bytes that look random (a linear congruential generator). */
function noise(length: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    bytes[i] = state >>> 16;
  }
  return bytes;
}

const withoutNul = (bytes: Buffer) => Buffer.from(bytes.filter((byte) => byte !== 0));
const text = (line: string, times: number) => Buffer.from(line.repeat(times));

describe('binary output', () => {
  it.each([
    ['4 KiB of random bytes', noise(4096)],
    ['random bytes without a single NUL', withoutNul(noise(4096))],
    ['random bytes with every byte above 0x7f', Buffer.from(noise(2048).map((b) => b | 0x80))],
    [
      'an ELF header',
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), noise(600)]),
    ],
    ['a gzip stream', Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), noise(600, 3)])],
    ['UTF-16 text', Buffer.from('hello world\n'.repeat(20), 'utf16le')],
    ['one invalid byte', Buffer.from([0xff])],
  ])('is recognised in %s', (_what, bytes) => {
    expect(looksLikeBinaryOutput(bytes)).toBe(true);
  });

  it.each([
    ['ASCII lines', text('line of output\n', 300)],
    ['UTF-8 Chinese and emoji', text('编译成功 ✓ 🎉\n', 300)],
    ['coloured output', text('\x1b[32mPASS\x1b[0m test one\n', 200)],
    ['Latin-1 text with a few accents', Buffer.from('café crème déjà vu\n'.repeat(100), 'latin1')],
    ['text with a few stray bytes', Buffer.concat([text('ok\n', 500), Buffer.from([0xff, 0xfe])])],
    ['a progress bar with carriage returns', text('50%\r100%\r\n', 200)],
    ['nothing', Buffer.alloc(0)],
  ])('is not seen in %s', (_what, bytes) => {
    expect(looksLikeBinaryOutput(bytes)).toBe(false);
  });

  it('looks at the last kilobytes too when the middle of a long stream was dropped', () => {
    const stream = snap(Buffer.concat([text('build log\n', 10_000), noise(20_000)]), 64 * 1024);
    expect(stream.omittedBytes).toBeGreaterThan(0);
    expect(isBinaryStream(stream)).toBe(true);
    expect(isBinaryStream(snap(text('build log\n', 10_000), 64 * 1024))).toBe(false);
  });

  it('says the size and the first bytes in hex', () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.alloc(60)]);
    expect(binaryOutputNote(snap(elf))).toBe(
      '[binary output: 64 bytes, not shown; starts with 7f 45 4c 46 00 00 00 00 00 00 00 00 00 00 00 00 …]',
    );
    expect(binaryOutputNote(snap(Buffer.from([0, 1])))).toBe(
      '[binary output: 2 bytes, not shown; starts with 00 01]',
    );
  });
});
