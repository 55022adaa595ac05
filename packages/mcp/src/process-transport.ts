import { type ChildProcess, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A program that starts the server's command for it (a sandbox, a death-signal helper): the
 * server runs as `command ...args serverCommand ...serverArgs`.
 *
 * @example
 * const launcher: McpLauncher = { command: '/usr/bin/setpriv', args: ['--pdeathsig', 'KILL'] };
 */
export interface McpLauncher {
  command: string;
  args: readonly string[];
  /** Bytes the launcher reads from one more descriptor (bubblewrap's filter), written at start. */
  input?: { fd: number; data: Uint8Array };
}

/** How one stdio server process is started. */
export interface ProcessTransportOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  launcher?: McpLauncher;
  /** Called with each chunk the server writes to stderr (it never reaches the terminal). */
  onStderr?: (text: string) => void;
}

/** How long a server has to leave after its input is closed, and after SIGTERM. */
const GRACE_MS = 1_000;

/**
 * The MCP stdio transport, with the server in its own process group: newline-delimited JSON-RPC
 * on the server's stdin and stdout. Closing ends the server's input, then signals the whole group
 * (SIGTERM, then SIGKILL), so nothing the server started is left behind. Lines on stdout that are
 * not JSON-RPC are reported through `onerror` and skipped.
 *
 * @example
 * const transport = new ProcessTransport({ command: 'node', args: ['server.js'], env: {} });
 * await client.connect(transport);
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly options: ProcessTransportOptions) {}

  /** The process id of the server (or of its launcher), once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the server process is already started');
    const { launcher, command, args } = this.options;
    const file = launcher ? launcher.command : command;
    const argv = launcher ? [...launcher.args, command, ...args] : [...args];
    const input = launcher?.input;
    const stdio: Array<'pipe' | 'ignore'> = ['pipe', 'pipe', 'pipe'];
    if (input) {
      while (stdio.length < input.fd) stdio.push('ignore');
      stdio[input.fd] = 'pipe';
    }
    return new Promise((resolve, reject) => {
      const child = spawn(file, argv, {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio,
        // Its own process group, so closing can signal everything the server started.
        detached: true,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      if (input) {
        const pipe = child.stdio[input.fd] as Writable | null;
        // A launcher that dies before reading closes the pipe; the exit is what gets reported.
        pipe?.on('error', () => {});
        pipe?.end(Buffer.from(input.data));
      }
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk);
        this.drain();
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.options.onStderr?.(text));
    });
  }

  private drain(): void {
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed)
      return Promise.reject(new Error('the server process has exited'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    child.stdin?.end();
    if (!(await settlesWithin(this.exited, GRACE_MS))) {
      signalGroup(child, 'SIGTERM');
      if (!(await settlesWithin(this.exited, GRACE_MS))) signalGroup(child, 'SIGKILL');
      await this.exited;
    }
    // Whatever the server started and left running in its group goes with it.
    signalGroup(child, 'SIGKILL');
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
