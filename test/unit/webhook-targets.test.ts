import { readConfig } from '../../shared/config';
import { addressProblem, type WebhookTargetPolicy, webhookTargetProblem } from '../../shared/domain/webhook-targets';

describe('webhook target policy', () => {
  const strict: WebhookTargetPolicy = { allowPrivate: false, ownBases: ['https://sho.rt'] };
  const relaxed: WebhookTargetPolicy = { ...strict, allowPrivate: true };

  describe('addressProblem', () => {
    it.each([
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private (carrier-grade NAT)'],
      ['100.127.255.254', 'private (carrier-grade NAT)'],
      ['fc00::1', 'private (unique local)'],
      ['fd12:3456::1', 'private (unique local)'],
      ['169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['2001:db8::1', 'reserved'],
      ['2002:7f00:1::1', 'reserved'], // 6to4
      ['2001::1', 'reserved'], // Teredo
      // IPv4-mapped and NAT64 addresses are what they carry.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['64:ff9b::7f00:1', 'loopback'],
      ['64:ff9b::a9fe:a9fe', 'link-local'],
    ])('refuses %s, a %s address', (address, kind) => {
      expect(addressProblem(address, strict)).toMatch(
        new RegExp(`^${escapeRegExp(address)}, an? ${escapeRegExp(kind)} address \\(WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets\\)$`),
      );
      expect(addressProblem(address, relaxed)).toBeUndefined();
    });

    it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
      'accepts %s, a public address',
      (address) => {
        expect(addressProblem(address, strict)).toBeUndefined();
      },
    );

    it('refuses what is not an address', () => {
      expect(addressProblem('example.com', relaxed)).toBe('example.com, not an IP address');
    });
  });

  describe('webhookTargetProblem', () => {
    it.each([
      ['ftp://example.com/x', 'Webhook URL must be http or https'],
      ['file:///etc/passwd', 'Webhook URL must be http or https'],
      ['not a url', 'Webhook URL is not a URL'],
      ['https://user:pw@example.com/', 'Webhook URL must not carry credentials'],
      ['https://user@example.com/', 'Webhook URL must not carry credentials'],
    ])('refuses %s', (url, problem) => {
      expect(webhookTargetProblem(url, relaxed)).toBe(problem);
    });

    it.each([
      ['http://127.0.0.1:8080/service/Link/Delete?ids=2', '127.0.0.1, a loopback'],
      // Spellings WHATWG URL turns into the dotted form
      ['http://2130706433/', '127.0.0.1, a loopback'],
      ['http://0x7f000001/', '127.0.0.1, a loopback'],
      ['http://0x7f.1/', '127.0.0.1, a loopback'],
      ['http://0177.0.0.1/', '127.0.0.1, a loopback'],
      ['http://127.1/', '127.0.0.1, a loopback'],
      ['http://0/', '0.0.0.0, an unspecified'],
      ['http://0xa9fea9fe/latest/meta-data/', '169.254.169.254, a link-local'],
      ['http://3232235777/', '192.168.1.1, a private'],
      ['http://[::1]:3000/', '::1, a loopback'],
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1, a loopback'],
      ['http://[0:0:0:0:0:ffff:a00:1]/', '::ffff:a00:1, a private'],
      ['http://[fd00::5]/', 'fd00::5, a private (unique local)'],
      ['http://[fe80::1]/', 'fe80::1, a link-local'],
      ['http://100.64.1.1/', '100.64.1.1, a private (carrier-grade NAT)'],
    ])('refuses %s, an address that is not public', (url, problem) => {
      expect(webhookTargetProblem(url, strict)).toBe(
        `Webhook URL must not point at ${problem} address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)`,
      );
      expect(webhookTargetProblem(url, relaxed)).toBeUndefined();
    });

    it.each(['http://localhost:3000/', 'http://LOCALHOST./', 'http://hooks.localhost/'])(
      'refuses %s, a loopback name, unless private targets are allowed',
      (url) => {
        expect(webhookTargetProblem(url, strict)).toMatch(
          /^Webhook URL must not point at [a-z.]+, a loopback name \(WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets\)$/,
        );
        expect(webhookTargetProblem(url, relaxed)).toBeUndefined();
      },
    );

    it.each(['https://sho.rt/service/Link/Delete?ids=2', 'http://sho.rt/x', 'https://SHO.RT./x', 'https://sho.rt:443/x', 'http://sho.rt:80/'])(
      'refuses %s, the service itself, even with private targets allowed',
      (url) => {
        expect(webhookTargetProblem(url, relaxed)).toMatch(/^Webhook URL must not point at this service \(/);
      },
    );

    it('tells the service itself from another program on the same local host by the port', () => {
      const local: WebhookTargetPolicy = { allowPrivate: true, ownBases: ['http://127.0.0.1:8080'] };
      expect(webhookTargetProblem('http://127.0.0.1:8080/service/Link/Delete', local)).toBe(
        'Webhook URL must not point at this service (127.0.0.1:8080)',
      );
      expect(webhookTargetProblem('http://127.0.0.1:9090/hook', local)).toBeUndefined();
    });

    it('accepts public names and addresses', () => {
      expect(webhookTargetProblem('https://hooks.example.com/sms?x=1', strict)).toBeUndefined();
      expect(webhookTargetProblem('http://8.8.8.8:8080/hook', strict)).toBeUndefined();
      expect(webhookTargetProblem('https://sub.sho.rt/hook', strict)).toBeUndefined();
    });
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it('is off unless set to 1 or true, and refuses anything else at start', () => {
    expect(readConfig({}).webhookAllowPrivateTargets).toBe(false);
    expect(readConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).webhookAllowPrivateTargets).toBe(false);
    expect(readConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }).webhookAllowPrivateTargets).toBe(true);
    expect(readConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(() => readConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow('WEBHOOK_ALLOW_PRIVATE_TARGETS must be 1 or 0: yes');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
