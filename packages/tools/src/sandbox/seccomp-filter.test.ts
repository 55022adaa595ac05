import { describe, expect, it } from 'vitest';
import {
  SECCOMP_ARCHITECTURES,
  type SeccompArch,
  seccompArchOf,
  unixSocketFilter,
} from './seccomp-filter.js';

/** Audit numbers of the compat tables a 64-bit process can still enter. */
const AUDIT_I386 = 0x4000_0003;
const AUDIT_ARM = 0x4000_0028;

const ALLOW = 'allow';
const EPERM = 'EPERM';
const ENOSYS = 'ENOSYS';
const KILL = 'kill process';

/** What a seccomp return value means, in the words of the table below. */
function actionOf(ret: number): string {
  if (ret === 0x7fff_0000) return ALLOW;
  if (ret === 0x8000_0000) return KILL;
  if (ret >>> 16 === 0x0005) {
    const errno = ret & 0xffff;
    return errno === 1 ? EPERM : errno === 38 ? ENOSYS : `errno ${errno}`;
  }
  return `unknown 0x${ret.toString(16)}`;
}

/**
 * A classic BPF interpreter for the instructions a seccomp program may use here (absolute word
 * loads, AND with a constant, conditional jumps on a constant, returns), refusing anything else,
 * as the kernel's checker would. It also checks what the kernel checks at load time: whole
 * instructions, forward jumps that stay inside, and a return as the last instruction.
 */
function run(program: Buffer, call: { arch: number; nr: number; args?: readonly bigint[] }) {
  expect(program.length % 8).toBe(0);
  const count = program.length / 8;
  expect(program.readUInt16LE((count - 1) * 8)).toBe(0x06);
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((arg, index) => {
    data.writeBigUInt64LE(BigInt.asUintN(64, arg), 16 + 8 * index);
  });
  let a = 0;
  let pc = 0;
  for (let steps = 0; steps <= count; steps += 1) {
    expect(pc).toBeLessThan(count);
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: // ld [k]
        expect(k % 4).toBe(0);
        expect(k).toBeLessThan(64);
        a = data.readUInt32LE(k);
        pc += 1;
        break;
      case 0x54: // and #k
        a = (a & k) >>> 0;
        pc += 1;
        break;
      case 0x15: // jeq #k
        pc += 1 + (a === k ? jt : jf);
        break;
      case 0x35: // jge #k
        pc += 1 + (a >= k ? jt : jf);
        break;
      case 0x06: // ret #k
        return actionOf(k);
      default:
        throw new Error(`instruction 0x${code.toString(16)} at ${pc} is not expected here`);
    }
  }
  throw new Error('the program did not return');
}

const AF_UNIX = 1n;
const AF_INET = 2n;
const SOCK_STREAM = 1n;
const SOCK_DGRAM = 2n;
const SOCK_RAW = 3n;
const SOCK_SEQPACKET = 5n;
const SOCK_NONBLOCK = 0o4000n;
const SOCK_CLOEXEC = 0o2000000n;

type Row = [what: string, arch: number, nr: number, args: readonly bigint[], action: string];

function table(arch: SeccompArch, native: number, foreign: number): Row[] {
  const t = SECCOMP_ARCHITECTURES[arch];
  const [setup = 0, enter = 0, register = 0] = t.ioUring;
  return [
    ['socket(AF_UNIX, SOCK_STREAM)', native, t.socket, [AF_UNIX, SOCK_STREAM], EPERM],
    [
      'socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)',
      native,
      t.socket,
      [AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC],
      EPERM,
    ],
    [
      'socket(AF_UNIX) with junk in the high half the kernel ignores',
      native,
      t.socket,
      [(0xdead_beefn << 32n) | AF_UNIX, SOCK_STREAM],
      EPERM,
    ],
    ['socket(AF_INET, SOCK_STREAM)', native, t.socket, [AF_INET, SOCK_STREAM], ALLOW],
    [
      'socket(AF_INET) with the high half set',
      native,
      t.socket,
      [(1n << 32n) | AF_INET, SOCK_STREAM],
      ALLOW,
    ],
    ['socketpair(AF_UNIX, SOCK_STREAM)', native, t.socketpair, [AF_UNIX, SOCK_STREAM], ALLOW],
    [
      'socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC)',
      native,
      t.socketpair,
      [AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC],
      ALLOW,
    ],
    ['socketpair(AF_UNIX, SOCK_SEQPACKET)', native, t.socketpair, [AF_UNIX, SOCK_SEQPACKET], ALLOW],
    ['socketpair(AF_UNIX, SOCK_DGRAM)', native, t.socketpair, [AF_UNIX, SOCK_DGRAM], EPERM],
    [
      'socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)',
      native,
      t.socketpair,
      [AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC],
      EPERM,
    ],
    [
      'socketpair(AF_UNIX, SOCK_RAW), which unix sockets treat as a datagram',
      native,
      t.socketpair,
      [AF_UNIX, SOCK_RAW],
      EPERM,
    ],
    ['socketpair(AF_INET, SOCK_DGRAM)', native, t.socketpair, [AF_INET, SOCK_DGRAM], ALLOW],
    ['io_uring_setup', native, setup, [8n, 0n], ENOSYS],
    ['io_uring_enter', native, enter, [3n], ENOSYS],
    ['io_uring_register', native, register, [3n], ENOSYS],
    ['an ordinary call (read)', native, arch === 'x64' ? 0 : 63, [0n], ALLOW],
    ['the call after io_uring_register', native, register + 1, [], ALLOW],
    ['a foreign call with the native socket number', foreign, t.socket, [AF_UNIX], KILL],
    ['a foreign ordinary call', foreign, 20, [], KILL],
  ];
}

const X86_64 = SECCOMP_ARCHITECTURES.x64.audit;
const AARCH64 = SECCOMP_ARCHITECTURES.arm64.audit;

describe('the unix-socket seccomp filter on x86_64', () => {
  const program = unixSocketFilter('x64');

  it.each(table('x64', X86_64, AUDIT_I386))('%s → %s', (_what, arch, nr, args, action) => {
    expect(run(program, { arch, nr, args })).toBe(action);
  });

  it('kills the i386 socketcall (int 0x80), whose arguments it cannot read, and i386 socket', () => {
    expect(run(program, { arch: AUDIT_I386, nr: 102, args: [1n, 0x1000n] })).toBe(KILL);
    expect(run(program, { arch: AUDIT_I386, nr: 359, args: [AF_UNIX, SOCK_STREAM] })).toBe(KILL);
  });

  it('refuses the x32 ABI (bit 30) with ENOSYS, socket included', () => {
    expect(run(program, { arch: X86_64, nr: 0x4000_0000 + 41, args: [AF_UNIX] })).toBe(ENOSYS);
    expect(run(program, { arch: X86_64, nr: 0x4000_0000, args: [] })).toBe(ENOSYS);
  });

  it('reads x86_64 number 102 as getuid, not socketcall, and allows it', () => {
    expect(run(program, { arch: X86_64, nr: 102, args: [] })).toBe(ALLOW);
  });

  it('kills aarch64 calls: a program is for one architecture only', () => {
    expect(run(program, { arch: AARCH64, nr: 198, args: [AF_UNIX] })).toBe(KILL);
  });
});

describe('the unix-socket seccomp filter on aarch64', () => {
  const program = unixSocketFilter('arm64');

  it.each(table('arm64', AARCH64, AUDIT_ARM))('%s → %s', (_what, arch, nr, args, action) => {
    expect(run(program, { arch, nr, args })).toBe(action);
  });

  it('has no x32 rule: a number with bit 30 set is an ordinary (unknown) call', () => {
    expect(run(program, { arch: AARCH64, nr: 0x4000_0000 + 198, args: [AF_UNIX] })).toBe(ALLOW);
  });

  it('kills x86_64 calls, even a socket(AF_INET)', () => {
    expect(run(program, { arch: X86_64, nr: 41, args: [AF_INET] })).toBe(KILL);
  });
});

describe('architectures with a filter', () => {
  it('are x64 and arm64 only; others get none', () => {
    expect(seccompArchOf('x64')).toBe('x64');
    expect(seccompArchOf('arm64')).toBe('arm64');
    for (const other of ['ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'toString']) {
      expect(seccompArchOf(other), other).toBeUndefined();
    }
  });

  it('encode each instruction in 8 little-endian bytes: code, jt, jf, k', () => {
    const program = unixSocketFilter('x64');
    // ld [4]: the arch field.
    expect([...program.subarray(0, 8)]).toEqual([0x20, 0, 0, 0, 4, 0, 0, 0]);
    // jeq AUDIT_ARCH_X86_64, then the next instruction, else the kill at the end.
    expect(program.readUInt16LE(8)).toBe(0x15);
    expect(program.readUInt8(10)).toBe(0);
    expect(program.readUInt32LE(12)).toBe(X86_64);
    const last = program.length - 8;
    expect(program.readUInt8(11)).toBe(last / 8 - 2);
    expect([...program.subarray(last)]).toEqual([0x06, 0, 0, 0, 0, 0, 0, 0x80]);
  });
});
