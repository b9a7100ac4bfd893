import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { WebhooksRepository } from '../../shared/store/webhooks-repo';
import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';
import { admin } from '../support/serve-process';

/**
 * Webhook targets without WEBHOOK_ALLOW_PRIVATE_TARGETS: a loopback receiver is refused
 * by the admin CLI, and one stored anyway (before the rule, or behind its back) is
 * never called.
 */
describe('webhook targets', () => {
  let receiver: Server;
  let receiverPort: number;
  const received: string[] = [];

  beforeAll(async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    receiver = createServer((request, response) => {
      received.push(`${request.method} ${request.url}`);
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    receiverPort = (receiver.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  describe('admin CLI', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    it('refuses a loopback target with a clear message and a non-zero exit, storing nothing, unless private targets are allowed', () => {
      // Prepare
      const accountId = admin(dataDir, 'account', 'create', '--name', 'Hooks').stdout.match(/Account (\d+)/)![1]!;

      // Act
      const refused = admin(dataDir, 'webhook', 'add', accountId, `http://127.0.0.1:${receiverPort}/service/Link/Delete?apiKey=k&ids=2`);
      const listed = admin(dataDir, 'webhook', 'list', accountId);

      // Assess
      expect(refused).toMatchObject({
        status: 1,
        stdout: '',
        stderr: 'Error: Webhook URL must not point at 127.0.0.1, a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS=1 allows private targets)\n',
      });
      expect(listed.stdout).toBe('No webhooks\n');

      // The service itself stays refused with the setting (the CLI's short-link base is 127.0.0.1:8080)...
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = '1';
      try {
        expect(admin(dataDir, 'webhook', 'add', accountId, 'http://127.0.0.1:8080/service/Link/Delete?ids=2')).toMatchObject({
          status: 1,
          stderr: 'Error: Webhook URL must not point at this service (127.0.0.1:8080)\n',
        });
        // ...while another loopback receiver is accepted
        expect(admin(dataDir, 'webhook', 'add', accountId, `http://127.0.0.1:${receiverPort}/hook`).status).toBe(0);
      } finally {
        delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
      }
      expect(admin(dataDir, 'webhook', 'list', accountId).stdout).toContain(`http://127.0.0.1:${receiverPort}/hook`);
    }, 120_000);
  });

  describe('delivery', () => {
    let service: TestService;
    const outcomes = new Map<string, string>();

    beforeAll(async () => {
      service = await startService();
      // Records each attempt's outcome as the worker runs it.
      const attempt = service.runtime.webhooks.attempt.bind(service.runtime.webhooks);
      service.runtime.webhooks.attempt = async (eventId) => {
        const result = await attempt(eventId);
        if (result.outcome !== 'skipped') outcomes.set(eventId, result.outcome);
        return result;
      };
    });
    afterAll(() => service.close());

    it('never calls a stored loopback target, a localhost name or the service itself, and abandons their events', async () => {
      // Prepare: webhooks written straight to the table, past the registration check
      received.length = 0;
      const { id: accountId, key } = await service.account();
      await service.runtime.accounts.setPrice(accountId, '*', 0.05);
      const link = await service.api('Link/Create', key, { 'data[fullLink]': 'https://example.com/kept' });
      const targets = [
        `http://127.0.0.1:${receiverPort}/hook`,
        `http://localhost:${receiverPort}/hook`,
        `http://[::ffff:127.0.0.1]:${receiverPort}/hook`,
        `${service.baseUrl}/service/Link/Delete?apiKey=${key}&ids=${link.data.id}`,
      ];
      const repository = new WebhooksRepository(service.runtime.store);
      for (const url of targets) {
        await repository.addWebhook({ id: ulid(), accountId, url, secret: 'a-secret-of-sixteen+', createdAt: new Date().toISOString() });
      }

      // Act: a final status makes one event per webhook
      await service.api('Message/SendSmsMessage', key, { recipient: '447400123450', text: 'Report me' });
      await eventually(async () => outcomes.size >= targets.length, { timeoutMs: 15_000 });

      // Assess: every event abandoned at its first attempt with the reason; nothing was called
      const events = await Promise.all([...outcomes.keys()].map((eventId) => repository.getEvent(eventId)));
      expect([...outcomes.values()]).toEqual(targets.map(() => 'failed'));
      expect(events.map((event) => [event!.url, event!.state, event!.attempts, event!.lastError]).sort()).toEqual(
        [
          [targets[0], 'failed', 1, expect.stringContaining('127.0.0.1, a loopback address')],
          [targets[1], 'failed', 1, expect.stringContaining('localhost, a loopback name')],
          [targets[2], 'failed', 1, expect.stringContaining('::ffff:7f00:1, a loopback address')],
          [targets[3], 'failed', 1, expect.stringContaining('must not point at this service')],
        ].sort(),
      );
      expect(received).toEqual([]);
      expect((await service.api('Link/Get', key, { id: String(link.data.id) })).code).toBe(0);
    });
  });
});
