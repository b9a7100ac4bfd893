import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { answerClientError } from '../../shared/local/client-errors';

/**
 * The local server's answer to what Node's parser refuses, on a bare server of its own: a
 * client that keeps its side of the connection open and silent after the answer does not
 * keep the connection.
 */
describe('answerClientError', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const connections = () => new Promise<number>((resolve, reject) => server.getConnections((error, n) => (error ? reject(error) : resolve(n))));

  it.each([
    [
      'an API call with raw bytes outside ASCII',
      'GET /service/Link/List?output=json&criteria[query]=ноябрь HTTP/1.1\r\nHost: x\r\n\r\n',
      /"code":12/,
    ],
    ['another request the parser refuses', 'GET /привет HTTP/1.1\r\nHost: x\r\n\r\n', /^HTTP\/1\.1 400 Bad Request\r\n/],
  ])(
    'closes the connection of %s whose client stays half-open and silent',
    async (_name, request, answer) => {
      // allowHalfOpen: the client neither closes its side when the server closes its own, nor sends anything more.
      const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true }, () => socket.write(request));
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
      });
      await new Promise((resolve) => socket.once('end', resolve));
      expect(received).toMatch(answer);
      expect(await connections()).toBe(1);
      while ((await connections()) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
    },
    20_000,
  );
});
