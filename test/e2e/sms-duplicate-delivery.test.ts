import type { OutboundSms } from '../../shared/domain/gateway';
import type { SimulatorGateway } from '../../shared/sms/simulator';
import { eventually } from '../support/eventually';
import { startService, type TestService } from '../support/local-service';

/**
 * Fault test: every message on the send queue is delivered twice (SQS promises at least
 * once), over the local server. Each SMS still reaches the gateway exactly once and ends
 * in the status its recipient calls for.
 */
describe('send pipeline under duplicate queue delivery', () => {
  let service: TestService;
  let key: string;
  const submits = new Map<number, number>();

  beforeAll(async () => {
    service = await startService();
    const account = await service.account();
    key = account.key;
    await service.runtime.accounts.setPrice(account.id, '*', 0.05);
    (service.runtime.gateway as SimulatorGateway).observe((sms: OutboundSms) => submits.set(sms.messageId, (submits.get(sms.messageId) ?? 0) + 1));
    const queue = service.local.queues.queues.sms;
    const send = queue.send.bind(queue);
    queue.send = (body, options) => {
      send(body, options);
      send(body, options);
    };
  });

  afterAll(() => service.close());

  it('submits each message once and settles every one', async () => {
    // Simulator rule by last digit: 0–5 DELIVRD, 6 UNDELIV, 7 REJECTD at submit, 9 PDLIVRD then DELIVRD.
    const digits = [0, 1, 2, 3, 4, 5, 6, 7, 9];
    const expected = new Map<number, string>();
    for (let i = 0; i < 27; i++) {
      const digit = digits[i % digits.length]!;
      const sent = await service.api('Message/SendSmsMessage', key, {
        recipient: `+4474001230${String(i).padStart(2, '0')}`.slice(0, -1) + digit,
        text: `Fault test ${i}`,
      });
      expect(sent).toMatchObject({ code: 0 });
      expected.set(sent.data.messageId, digit === 6 ? 'UNDELIV' : digit === 7 ? 'REJECTD' : 'DELIVRD');
    }
    const ids = [...expected.keys()];
    const statuses = async () =>
      new Map<number, string>(
        (await service.api('Message/GetSMSStatus', key, { ids: ids.join(',') })).data.map((m: { id: number; status: string }) => [m.id, m.status]),
      );
    await eventually(
      async () => {
        const now = await statuses();
        return [...expected].every(([id, status]) => now.get(id) === status);
      },
      { timeoutMs: 20_000 },
    ).catch(async () => {
      throw new Error(`Statuses: ${JSON.stringify([...(await statuses())])}`);
    });
    expect(await statuses()).toEqual(expected);
    // Every queue message arrived twice; the claim let one copy through.
    await service.local.queues.drain();
    expect([...submits.keys()].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    expect([...submits.values()].every((count) => count === 1)).toBe(true);
  });
});
