import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

let id: string | undefined;

/**
 * This process as a server replica: its host name, process id and a random part, made once per
 * process. It holds the chats' leases, so another replica (or a restart on the same host) is
 * never mistaken for it.
 *
 * @example
 * replicaId(); // 'web-1:4242:9f3a1c'
 */
export function replicaId(): string {
  id ??= `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  return id;
}
