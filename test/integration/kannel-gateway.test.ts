import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutboundSms } from '../../shared/domain/gateway';
import { KannelGateway } from '../../shared/sms/kannel';

/**
 * The kannel gateway's sendsms calls against a local HTTP server standing in for smsbox,
 * for answers real Kannel is hard to make give: a refusal of one part, a 5xx.
 */
describe('KannelGateway sendsms', () => {
  let server: Server;
  let requests: URL[] = [];
  let answer: (url: URL) => [number, string] = () => [202, '0: Accepted for delivery'];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://smsbox');
      requests.push(url);
      const [status, body] = answer(url);
      res.writeHead(status).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests = [];
    answer = () => [202, '0: Accepted for delivery'];
  });

  const gateway = () =>
    new KannelGateway({
      sendsmsUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cgi-bin/sendsms`,
      username: 'user',
      password: { value: 'pass' },
      smsc: undefined,
      reportBaseUrl: 'http://service.test',
      reportSecret: { value: 'secret' },
      timeoutMs: 2_000,
      region: 'us-east-1',
    });
  const sms = (text: string, messageId = 300): OutboundSms => ({
    messageId,
    from: 'Shop',
    to: '447400123450',
    text,
    encoding: 'GSM-7',
    segments: 1,
    validityMinutes: 60,
  });
  /** The udh parameter as bytes (the raw query, since it is binary). */
  const udhOf = (url: URL) =>
    Buffer.from([...(/[?&]udh=([^&]*)/.exec(url.search)?.[1] ?? '').matchAll(/%([0-9A-F]{2})/gi)].map((match) => parseInt(match[1]!, 16)));

  it('sends a single message in one call, without a header, with a dlr-url for the message', async () => {
    expect(await gateway().submit(sms('Hello'))).toEqual({ outcome: 'accepted', gatewayMessageId: 'msg-300' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.searchParams.get('udh')).toBeNull();
    expect(requests[0]!.searchParams.get('dlr-url')).toMatch(/^http:\/\/service\.test\/dlr\/kannel\?message=300&sig=[0-9a-f]{32}&type=%d/);
  });

  it('sends a long message part by part, each with its concatenation header and a dlr-url naming the part', async () => {
    const text = 'x'.repeat(153 * 2 + 10);
    expect(await gateway().submit({ ...sms(text, 0x1ff), segments: 3 })).toEqual({ outcome: 'accepted', gatewayMessageId: 'msg-511' });
    expect(requests.map((url) => [...udhOf(url)])).toEqual([
      [0x05, 0x00, 0x03, 0xff, 3, 1],
      [0x05, 0x00, 0x03, 0xff, 3, 2],
      [0x05, 0x00, 0x03, 0xff, 3, 3],
    ]);
    expect(requests.map((url) => url.searchParams.get('text')!.length)).toEqual([153, 153, 10]);
    expect(requests.map((url) => /&part=(\d+)&/.exec(url.searchParams.get('dlr-url')!)?.[1])).toEqual(['1', '2', '3']);
  });

  it('reports later parts that Kannel refuses, and gives up on the message when the first is refused', async () => {
    answer = (url) => (/part=2&/.test(url.searchParams.get('dlr-url')!) ? [403, 'Forbidden'] : [202, '0: Accepted for delivery']);
    expect(await gateway().submit(sms('y'.repeat(400)))).toEqual({ outcome: 'accepted', gatewayMessageId: 'msg-300', refusedParts: [2] });

    requests = [];
    answer = () => [400, 'Bad request'];
    expect(await gateway().submit(sms('y'.repeat(400)))).toMatchObject({ outcome: 'rejected' });
    expect(requests).toHaveLength(1);
  });

  it('leaves the outcome unknown when Kannel fails or does not answer the first part', async () => {
    answer = () => [503, 'Busy'];
    expect(await gateway().submit(sms('Hello'))).toMatchObject({ outcome: 'ambiguous' });
  });
});
