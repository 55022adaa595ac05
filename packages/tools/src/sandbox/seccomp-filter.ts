/**
 * The seccomp filter that keeps a sandboxed command away from the host's unix sockets while the
 * network is off.
 *
 * Why a filter: a new network namespace cuts off TCP and the abstract unix namespace, but a
 * pathname unix socket is reached through the filesystem, and the read-only view of `/` still
 * lets `connect()` reach a socket a host process serves (in `/run`, `/var/tmp`, the workdir).
 * Hiding directories cannot cover every place such a socket may live, so the command may not
 * create unix sockets at all.
 *
 * Why it is written out by hand: bubblewrap loads a classic BPF program from a descriptor, and
 * the only generators of such programs (libseccomp and its bindings) are native code. The
 * program is short enough to assemble here, instruction by instruction, and its behaviour is
 * checked by running it in a small interpreter in the tests.
 *
 * What it decides, for every system call:
 * - a call from another architecture's table (the i386 `int 0x80` entry on x86_64, AArch32 on
 *   aarch64) kills the process: those tables have `socketcall`, whose arguments sit in memory a
 *   filter cannot read, so no rule about them could be trusted;
 * - on x86_64, an x32 call (number with bit 30 set) fails with ENOSYS, as on kernels built
 *   without x32;
 * - `socket(AF_UNIX, …)` fails with EPERM; other families are left alone (the network namespace
 *   already confines them);
 * - `socketpair(AF_UNIX, …)` is allowed for stream and seqpacket pairs only: a datagram socket,
 *   even one of a pair, can still `sendto()` or `connect()` to a named socket of the host;
 * - `io_uring_setup`, `io_uring_enter` and `io_uring_register` fail with ENOSYS, since a ring's
 *   socket and connect operations never pass through seccomp;
 * - everything else is allowed.
 * The native tables of x86_64 and aarch64 have no `socketcall`.
 */

/** `struct seccomp_data`: where the filter reads the call from. Arguments are 64-bit. */
const DATA = { nr: 0, arch: 4, args: 16 } as const;

/**
 * The low half of argument `index`. The kernel reads the domain and type arguments of `socket`
 * and `socketpair` as 32-bit ints, so the high half is ignored there too (and cannot be used to
 * slip past the comparison). Both supported architectures are little-endian.
 */
function argLow(index: number): number {
  return DATA.args + 8 * index;
}

const RET = {
  allow: 0x7fff_0000,
  killProcess: 0x8000_0000,
  errno: (code: number): number => 0x0005_0000 | code,
} as const;

const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
/** The type argument carries SOCK_NONBLOCK and SOCK_CLOEXEC above these bits. */
const SOCK_TYPE_MASK = 0xf;
const X32_SYSCALL_BIT = 0x4000_0000;

/**
 * What the filter needs to know of an architecture: its audit number (the `arch` field of every
 * call) and the numbers of the calls it looks at in its native table.
 *
 * @example
 * SECCOMP_ARCHITECTURES.x64.audit; // 0xc000003e
 */
export interface SeccompArchitecture {
  audit: number;
  socket: number;
  socketpair: number;
  ioUring: readonly number[];
  /** x86_64 only: the x32 ABI shares the native arch value and marks its numbers with bit 30. */
  x32?: boolean;
}

/**
 * The architectures with a filter, by `process.arch`.
 *
 * @example
 * SECCOMP_ARCHITECTURES.arm64.socket; // 198
 */
export const SECCOMP_ARCHITECTURES = {
  x64: { audit: 0xc000_003e, socket: 41, socketpair: 53, ioUring: [425, 426, 427], x32: true },
  arm64: { audit: 0xc000_00b7, socket: 198, socketpair: 199, ioUring: [425, 426, 427] },
} as const satisfies Record<string, SeccompArchitecture>;

/**
 * A `process.arch` with a filter.
 *
 * @example
 * const arch: SeccompArch = 'x64';
 */
export type SeccompArch = keyof typeof SECCOMP_ARCHITECTURES;

/**
 * `arch` (a `process.arch`) when there is a filter for it.
 *
 * @example
 * seccompArchOf('arm64'); // 'arm64'
 * seccompArchOf('ia32'); // undefined
 */
export function seccompArchOf(arch: string): SeccompArch | undefined {
  return Object.hasOwn(SECCOMP_ARCHITECTURES, arch) ? (arch as SeccompArch) : undefined;
}

// Classic BPF opcodes (linux/bpf_common.h): load a 32-bit word of `seccomp_data`, AND the
// accumulator with a constant, jump on equal / greater-or-equal to a constant, return a constant.
const LD_W_ABS = 0x20;
const ALU_AND_K = 0x54;
const JMP_JEQ_K = 0x15;
const JMP_JGE_K = 0x35;
const RET_K = 0x06;

/**
 * One instruction before assembly. A jump goes to label `jt` when the comparison holds, else to
 * `jf` (by default the next instruction).
 */
type Step =
  | { op: 'load'; offset: number }
  | { op: 'and'; k: number }
  | { op: 'jeq' | 'jge'; k: number; jt: string; jf?: string }
  | { op: 'ret'; k: number }
  | { op: 'label'; name: string };

type Instruction = [code: number, jt: number, jf: number, k: number];

function encode(
  step: Exclude<Step, { op: 'label' }>,
  offsetTo: (label?: string) => number,
): Instruction {
  switch (step.op) {
    case 'load':
      return [LD_W_ABS, 0, 0, step.offset];
    case 'and':
      return [ALU_AND_K, 0, 0, step.k];
    case 'ret':
      return [RET_K, 0, 0, step.k];
    case 'jeq':
    case 'jge':
      return [
        step.op === 'jeq' ? JMP_JEQ_K : JMP_JGE_K,
        offsetTo(step.jt),
        offsetTo(step.jf),
        step.k,
      ];
  }
}

/** Encode `steps` as `struct sock_filter` entries: u16 code, u8 jt, u8 jf, u32 k (little-endian). */
function assemble(steps: readonly Step[]): Buffer {
  const labels = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if (step.op === 'label') labels.set(step.name, count);
    else count += 1;
  }
  const program = Buffer.alloc(count * 8);
  let at = 0;
  const offsetTo = (label?: string): number => {
    if (label === undefined) return 0;
    const target = labels.get(label);
    // Classic BPF jumps only forward, by at most 255 instructions.
    if (target === undefined || target <= at || target - at - 1 > 0xff) {
      throw new Error(`seccomp filter: bad jump from ${at} to ${label}`);
    }
    return target - at - 1;
  };
  for (const step of steps) {
    if (step.op === 'label') continue;
    const [code, jt, jf, k] = encode(step, offsetTo);
    program.writeUInt16LE(code, at * 8);
    program.writeUInt8(jt, at * 8 + 2);
    program.writeUInt8(jf, at * 8 + 3);
    program.writeUInt32LE(k >>> 0, at * 8 + 4);
    at += 1;
  }
  return program;
}

/**
 * The filter for `arch`, as the bytes bubblewrap's `--seccomp FD` reads: an array of `struct
 * sock_filter` in the machine's byte order.
 *
 * @example
 * const program = unixSocketFilter('x64');
 * program.length % 8; // 0
 */
export function unixSocketFilter(arch: SeccompArch): Buffer {
  const table: SeccompArchitecture = SECCOMP_ARCHITECTURES[arch];
  return assemble([
    { op: 'load', offset: DATA.arch },
    { op: 'jeq', k: table.audit, jt: 'native', jf: 'kill' },
    { op: 'label', name: 'native' },
    { op: 'load', offset: DATA.nr },
    ...(table.x32 ? [{ op: 'jge', k: X32_SYSCALL_BIT, jt: 'enosys' } as const] : []),
    { op: 'jeq', k: table.socket, jt: 'socket' },
    { op: 'jeq', k: table.socketpair, jt: 'socketpair' },
    ...table.ioUring.map((nr) => ({ op: 'jeq', k: nr, jt: 'enosys' }) as const),
    { op: 'ret', k: RET.allow },
    { op: 'label', name: 'socket' },
    { op: 'load', offset: argLow(0) },
    { op: 'jeq', k: AF_UNIX, jt: 'eperm', jf: 'allow' },
    { op: 'label', name: 'socketpair' },
    { op: 'load', offset: argLow(0) },
    { op: 'jeq', k: AF_UNIX, jt: 'pair-type', jf: 'allow' },
    { op: 'label', name: 'pair-type' },
    { op: 'load', offset: argLow(1) },
    { op: 'and', k: SOCK_TYPE_MASK },
    { op: 'jeq', k: SOCK_STREAM, jt: 'allow' },
    { op: 'jeq', k: SOCK_SEQPACKET, jt: 'allow', jf: 'eperm' },
    { op: 'label', name: 'allow' },
    { op: 'ret', k: RET.allow },
    { op: 'label', name: 'eperm' },
    { op: 'ret', k: RET.errno(EPERM) },
    { op: 'label', name: 'enosys' },
    { op: 'ret', k: RET.errno(ENOSYS) },
    { op: 'label', name: 'kill' },
    { op: 'ret', k: RET.killProcess },
  ]);
}
