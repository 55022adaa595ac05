import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ConfigurationError, type Tool, type ToolContext } from '@tiny-claw/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBashTool } from '../bash/index.js';
import { probeBubblewrap } from './probe.js';
import { sandboxStatus } from './sandbox-status.js';

// Unix sockets served by host processes, as a sandboxed command meets them: with the network off
// (the default) it may not create a unix socket at all, so neither a socket outside the workdir
// nor one inside it can be reached; with the network on they are as reachable as the host's TCP
// ports.

const probe = probeBubblewrap();
const filterLoads = probe.usable && probe.filter.state === 'loads';
const whyNot = !probe.usable
  ? probe.reason
  : probe.filter.state === 'loads'
    ? ''
    : probe.filter.why;
const MARK = 'UNIX-SOCKET-MARK';

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const python = hasCommand('python3');

/** One way a command may talk to a unix socket: the program, and its command line for `socket`. */
interface Client {
  name: string;
  available: boolean;
  command: (socket: string) => string;
}

const CLIENTS: readonly Client[] = [
  {
    name: 'python3 socket.AF_UNIX',
    available: python,
    command: (socket) =>
      `python3 -c "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b'${MARK}')" ${socket}`,
  },
  {
    name: 'node net.connect({ path })',
    available: true,
    command: (socket) =>
      `'${process.execPath}' -e "const c = require('net').connect({ path: process.argv[1] }, () => c.end('${MARK}')); c.on('error', (e) => { console.error(String(e)); process.exit(1); })" ${socket}`,
  },
  {
    name: 'nc -U',
    available: hasCommand('nc'),
    command: (socket) => `printf ${MARK} | nc -U ${socket}`,
  },
  {
    name: 'socat',
    available: hasCommand('socat'),
    command: (socket) => `printf ${MARK} | socat - UNIX-CONNECT:${socket}`,
  },
  {
    name: 'curl --unix-socket',
    available: hasCommand('curl'),
    command: (socket) => `curl -sS -m 5 --unix-socket ${socket} http://localhost/${MARK}`,
  },
];

/** A host process serving a unix socket: what reached it, and an HTTP answer for curl. */
interface HostSocket {
  path: string;
  connections: number;
  received: string;
  server: Server;
}

async function serve(socketPath: string): Promise<HostSocket> {
  const host: HostSocket = {
    path: socketPath,
    connections: 0,
    received: '',
    server: createServer(),
  };
  host.server.on('connection', (socket) => {
    host.connections += 1;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      host.received += chunk;
      socket.end('HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\npong');
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    host.server.once('error', reject);
    host.server.listen(socketPath, resolve);
  });
  return host;
}

let base: string;
let root: string;
/** Outside /tmp (which the sandbox replaces), so the sandbox sees the host's socket there. */
let outside: string;
let hosts: HostSocket[];

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'tc-unix-')));
  root = path.join(base, 'w');
  await mkdir(root);
  const visible = existsSync('/var/tmp') ? '/var/tmp' : base;
  outside = await realpath(await mkdtemp(path.join(visible, 'tc-unix-outside-')));
  hosts = [];
});

afterEach(async () => {
  await Promise.all(
    hosts.map((host) => new Promise<void>((resolve) => host.server.close(() => resolve()))),
  );
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

async function host(where: 'outside' | 'inside'): Promise<HostSocket> {
  const served = await serve(
    where === 'outside' ? path.join(outside, 'host.sock') : path.join(root, 'in.sock'),
  );
  hosts.push(served);
  return served;
}

function ctx(): ToolContext {
  return {
    workdir: root,
    signal: new AbortController().signal,
    toolCallId: 'call-1',
    runId: 'run-1',
    visibleTools: ['bash'],
  };
}

async function run(command: string, network = false) {
  const tool = createBashTool({ sandbox: { mode: 'bwrap', network } }) as Tool;
  return tool.run(tool.parse({ command }), ctx());
}

/** Waits until `host` has received `text`, or `ms` have passed. */
async function receivedWithin(served: HostSocket, text: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!served.received.includes(text) && Date.now() < deadline) await delay(20);
  return served.received.includes(text);
}

describe.runIf(filterLoads)('host unix sockets with the network off', () => {
  for (const where of ['outside', 'inside'] as const) {
    for (const client of CLIENTS) {
      it.runIf(client.available)(
        `${client.name}: a host socket ${where} the workdir cannot be connected to, receives nothing, and the advice names TINY_CLAW_SANDBOX_NETWORK=on`,
        async () => {
          const served = await host(where);
          const out = await run(client.command(served.path));
          expect(out.isError, out.content).toBe(true);
          expect(out.metadata?.sandbox_block, out.content).toBe('network');
          expect(out.failure?.advice).toContain('TINY_CLAW_SANDBOX_NETWORK=on');
          await delay(200);
          expect(served.connections).toBe(0);
          expect(served.received).toBe('');
        },
      );
    }
  }

  it('a command is told that creating the socket was not permitted (EPERM)', async () => {
    const served = await host('outside');
    const out = await run(CLIENTS[1]?.command(served.path) ?? '');
    expect(out.content).toContain(`connect EPERM ${served.path}`);
  });

  it.runIf(python)(
    'socketpair still works for stream and seqpacket pairs; a datagram pair, which could send to a named host socket, is refused',
    async () => {
      const out = await run(
        `python3 -c "
import socket
a, b = socket.socketpair(); a.sendall(b'stream-pair-ok'); print(b.recv(64).decode())
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET); a.send(b'seqpacket-pair-ok'); print(b.recv(64).decode())
try:
    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); print('datagram-pair-made')
except OSError as error:
    print('datagram-pair-refused', error.errno)
"`,
      );
      expect(out.content).toContain('stream-pair-ok');
      expect(out.content).toContain('seqpacket-pair-ok');
      expect(out.content).toContain('datagram-pair-refused 1');
      expect(out.content).not.toContain('datagram-pair-made');
    },
  );

  it.runIf(python)(
    'io_uring cannot be set up (ENOSYS): its socket and connect operations would bypass the filter',
    async () => {
      const out = await run(
        `python3 -c "
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
params = ctypes.create_string_buffer(120)
print('io_uring_setup', libc.syscall(425, 8, params), ctypes.get_errno())
"`,
      );
      expect(out.content).toContain('io_uring_setup -1 38');
    },
  );

  it.runIf(python && process.arch === 'x64')(
    'a 32-bit system call (int 0x80, where socketcall lives) kills the process',
    async (context) => {
      const getpid = `python3 -c "
import ctypes, mmap
page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
page.write(bytes([0xb8, 20, 0, 0, 0, 0xcd, 0x80, 0xc3]))  # mov eax, 20 (i386 getpid); int 0x80; ret
call = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))
print('i386-getpid', call() > 0, flush=True)
"`;
      // Without the filter (network on) the 32-bit entry must work, or there is nothing to refuse.
      const unfiltered = await run(getpid, true);
      if (!unfiltered.content.includes('i386-getpid True')) {
        context.skip(`the 32-bit entry does not work here at all: ${unfiltered.content}`);
      }
      const filtered = await run(getpid);
      expect(filtered.content).not.toContain('i386-getpid');
      expect(filtered.metadata?.exit_code).toBe(128 + 31);
      expect(filtered.content).toContain('Bad system call');
    },
  );
});

describe.skipIf(filterLoads)('host unix sockets with the network off', () => {
  it(`are not tested here: ${whyNot}`, () => {});
});

describe.runIf(probe.usable)('host unix sockets with the network on', () => {
  for (const where of ['outside', 'inside'] as const) {
    it(`are reachable ${where} the workdir, as the host's TCP ports are`, async () => {
      const served = await host(where);
      const node = CLIENTS[1] as Client;
      const out = await run(node.command(served.path), true);
      expect(out.isError, out.content).toBe(false);
      expect(await receivedWithin(served, MARK, 5_000)).toBe(true);
    });
  }

  it.runIf(python)('python3 reaches them too, and socketpair keeps working', async () => {
    const served = await host('outside');
    const client = CLIENTS[0] as Client;
    const out = await run(client.command(served.path), true);
    expect(out.isError, out.content).toBe(false);
    expect(await receivedWithin(served, MARK, 5_000)).toBe(true);
  });
});

describe.skipIf(probe.usable)('host unix sockets with the network on', () => {
  it(`are not tested here: ${whyNot}`, () => {});
});

describe.runIf(probe.usable)('where the filter cannot be used', () => {
  /** A bubblewrap that fails whenever it is given a seccomp filter, as bwrap does when it cannot load one. */
  async function bwrapRefusingFilters(): Promise<string> {
    const fake = path.join(base, 'bwrap');
    const real = probe.usable ? probe.path : '/usr/bin/bwrap';
    await writeFile(
      fake,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = --seccomp ] && { echo "bwrap: prctl(PR_SET_SECCOMP): Operation not permitted" >&2; exit 1; }; done\nexec ${real} "$@"\n`,
    );
    await chmod(fake, 0o755);
    return fake;
  }

  it('bwrap mode refuses to start and says what is wrong when bubblewrap rejects the filter', async () => {
    const bwrapPath = await bwrapRefusingFilters();
    const status = sandboxStatus({ mode: 'bwrap', bwrapPath });
    expect(status.active).toBe('off');
    expect(status.reason).toContain('did not load the unix-socket filter');
    expect(status.reason).toContain('prctl(PR_SET_SECCOMP): Operation not permitted');
    expect(() => createBashTool({ sandbox: { mode: 'bwrap', bwrapPath } })).toThrow(
      ConfigurationError,
    );
  });

  it('auto keeps the rest of the sandbox and says the host unix sockets stay reachable', async () => {
    const bwrapPath = await bwrapRefusingFilters();
    const status = sandboxStatus({ mode: 'auto', bwrapPath });
    expect(status.active).toBe('bwrap');
    expect(status.reason).toContain('unix sockets of the host stay reachable');
    expect(status.reason).toContain('prctl(PR_SET_SECCOMP): Operation not permitted');
    const tool = createBashTool({ sandbox: { mode: 'auto', bwrapPath } }) as Tool;
    const out = await tool.run(
      tool.parse({ command: 'echo x > /etc/x; echo still-sandboxed' }),
      ctx(),
    );
    expect(out.content).toContain('Read-only file system');
    expect(out.content).toContain('still-sandboxed');
  });

  it('with the network on the filter is not needed, so a bubblewrap that rejects it is fine', async () => {
    const bwrapPath = await bwrapRefusingFilters();
    const status = sandboxStatus({ mode: 'bwrap', network: true, bwrapPath });
    expect(status.active).toBe('bwrap');
    expect(status.reason).not.toContain('stay reachable');
  });

  it('on an architecture without a filter the sandbox runs without it and says so', async () => {
    // A path of its own, so the probe (cached per binary) runs again under the other arch.
    const bwrapPath = path.join(base, 'bwrap-link');
    await symlink(probe.usable ? probe.path : '/usr/bin/bwrap', bwrapPath);
    const arch = Object.getOwnPropertyDescriptor(process, 'arch');
    Object.defineProperty(process, 'arch', { ...arch, value: 'riscv64' });
    try {
      const status = sandboxStatus({ mode: 'bwrap', bwrapPath });
      expect(status.active).toBe('bwrap');
      expect(status.reason).toContain(
        'unix sockets of the host stay reachable: no unix-socket filter for riscv64',
      );
    } finally {
      if (arch) Object.defineProperty(process, 'arch', arch);
    }
  });

  it.runIf(filterLoads)('where it loads, the status says nothing about it', () => {
    expect(sandboxStatus('bwrap').reason).not.toContain('unix');
  });
});

describe.skipIf(probe.usable)('where the filter cannot be used', () => {
  it(`is not tested here: ${whyNot}`, () => {});
});
