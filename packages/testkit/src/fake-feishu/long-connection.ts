import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * One frame of Feishu's long-connection protocol (protobuf `pbbp2.Frame`): control frames (ping,
 * pong) have method 0, data frames (events and the client's answers) method 1.
 */
export interface LongConnectionFrame {
  seqId: number;
  logId: number;
  service: number;
  method: number;
  headers: Array<{ key: string; value: string }>;
  payload: Uint8Array | undefined;
}

// A hand-written protobuf codec for this one message: the fake must not depend on the SDK it
// tests, and the schema is nine fields of three wire types.
const VARINT = 0;
const BYTES = 2;

function writeVarint(out: number[], value: number): void {
  let rest = value;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function writeBytes(out: number[], field: number, bytes: Uint8Array): void {
  writeVarint(out, (field << 3) | BYTES);
  writeVarint(out, bytes.length);
  for (const byte of bytes) out.push(byte);
}

/**
 * Encode a frame as the SDK's protobuf schema does.
 *
 * @example
 * socket.write(binaryFrame(encodeFrame({ seqId: 1, logId: 0, service: 1, method: 1, headers: [], payload })));
 */
export function encodeFrame(frame: LongConnectionFrame): Uint8Array {
  const out: number[] = [];
  const varintField = (field: number, value: number) => {
    writeVarint(out, (field << 3) | VARINT);
    writeVarint(out, value);
  };
  varintField(1, frame.seqId);
  varintField(2, frame.logId);
  varintField(3, frame.service);
  varintField(4, frame.method);
  for (const header of frame.headers) {
    const inner: number[] = [];
    writeBytes(inner, 1, Buffer.from(header.key, 'utf8'));
    writeBytes(inner, 2, Buffer.from(header.value, 'utf8'));
    writeBytes(out, 5, Uint8Array.from(inner));
  }
  if (frame.payload) writeBytes(out, 8, frame.payload);
  return Uint8Array.from(out);
}

/**
 * Decode a frame the client sent.
 *
 * @throws Error on bytes that are not such a frame.
 * @example
 * const frame = decodeFrame(message);
 */
export function decodeFrame(bytes: Uint8Array): LongConnectionFrame {
  const frame: LongConnectionFrame = {
    seqId: 0,
    logId: 0,
    service: 0,
    method: 0,
    headers: [],
    payload: undefined,
  };
  const fields = readFields(bytes);
  for (const { field, value } of fields) {
    if (typeof value === 'number') {
      if (field === 1) frame.seqId = value;
      else if (field === 2) frame.logId = value;
      else if (field === 3) frame.service = value;
      else if (field === 4) frame.method = value;
    } else if (field === 5) {
      const header = { key: '', value: '' };
      for (const inner of readFields(value)) {
        if (typeof inner.value === 'number') continue;
        if (inner.field === 1) header.key = Buffer.from(inner.value).toString('utf8');
        if (inner.field === 2) header.value = Buffer.from(inner.value).toString('utf8');
      }
      frame.headers.push(header);
    } else if (field === 8) {
      frame.payload = value;
    }
  }
  return frame;
}

function readFields(bytes: Uint8Array): Array<{ field: number; value: number | Uint8Array }> {
  const fields: Array<{ field: number; value: number | Uint8Array }> = [];
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error('truncated varint');
      const byte = bytes[at] as number;
      at += 1;
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
  };
  while (at < bytes.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const type = key & 7;
    if (type === VARINT) fields.push({ field, value: varint() });
    else if (type === BYTES) {
      const length = varint();
      fields.push({ field, value: bytes.subarray(at, at + length) });
      at += length;
    } else {
      throw new Error(`unsupported wire type ${type}`);
    }
  }
  return fields;
}

const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/**
 * A minimal WebSocket server side for one upgraded connection (RFC 6455: the handshake, unmasked
 * binary frames out, masked frames in, ping, close) — enough for the SDK's long-connection client,
 * without a dependency.
 */
export class FakeSocket {
  readonly #socket: Duplex;
  #buffer = Buffer.alloc(0);
  #onMessage: (data: Uint8Array) => void = () => {};
  #closed = false;

  private constructor(socket: Duplex) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#drain();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.#closed = true;
    });
  }

  /** Answer the upgrade request and wrap the socket; undefined when it is not a WebSocket request. */
  static accept(request: IncomingMessage, socket: Duplex): FakeSocket | undefined {
    const key = request.headers['sec-websocket-key'];
    if (typeof key !== 'string') {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return undefined;
    }
    const accept = createHash('sha1')
      .update(key + WEBSOCKET_GUID)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    return new FakeSocket(socket);
  }

  get closed(): boolean {
    return this.#closed;
  }

  onMessage(handler: (data: Uint8Array) => void): void {
    this.#onMessage = handler;
  }

  send(data: Uint8Array): void {
    if (this.#closed) return;
    this.#socket.write(Buffer.concat([frameHeader(0x2, data.length), Buffer.from(data)]));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#socket.write(frameHeader(0x8, 0));
    this.#socket.end();
  }

  #drain(): void {
    for (;;) {
      const buffer = this.#buffer;
      if (buffer.length < 2) return;
      const opcode = (buffer[0] as number) & 0x0f;
      const masked = ((buffer[1] as number) & 0x80) !== 0;
      let length = (buffer[1] as number) & 0x7f;
      let at = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        at = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        at = 10;
      }
      const mask = masked ? buffer.subarray(at, at + 4) : undefined;
      if (masked) at += 4;
      if (buffer.length < at + length) return;
      const payload = Buffer.from(buffer.subarray(at, at + length));
      if (mask)
        for (let i = 0; i < payload.length; i += 1)
          payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
      this.#buffer = buffer.subarray(at + length);
      if (opcode === 0x8) {
        this.close();
        return;
      }
      if (opcode === 0x9)
        this.#socket.write(Buffer.concat([frameHeader(0xa, payload.length), payload]));
      else if (opcode === 0x2 || opcode === 0x1) this.#onMessage(payload);
    }
  }
}

function frameHeader(opcode: number, length: number): Buffer {
  if (length < 126) return Buffer.from([0x80 | opcode, length]);
  if (length < 65536) {
    const header = Buffer.alloc(4);
    header[0] = 0x80 | opcode;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

/** A fresh id for a pushed event's frame. */
export function frameMessageId(): string {
  return `msg_${randomBytes(8).toString('hex')}`;
}
