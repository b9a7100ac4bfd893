import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Closes a client's connections beyond `limit` as soon as they open, so one client cannot
 * take every file descriptor. An IPv4 client reaching an IPv6 socket counts as itself.
 */
export function limitConnectionsPerAddress(server: Server, limit: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    const count = address === undefined ? limit : (open.get(address) ?? 0);
    if (address === undefined || count >= limit) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      // biome-ignore lint/style/noNonNullAssertion: counted above when the connection opened.
      const left = open.get(address)! - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** The client's address, IPv4-mapped IPv6 as plain IPv4; undefined once the socket is gone. */
function clientAddress(socket: Socket): string | undefined {
  const address = socket.remoteAddress;
  if (address === undefined) return undefined;
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}
