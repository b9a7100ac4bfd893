import type { DeliveryReport, OutboundSms } from '../../shared/domain/gateway';
import { SimulatorGateway } from '../../shared/sms/simulator';

// Report latencies and retry gaps run on jest's clock: the tests move time instead of waiting.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('SimulatorGateway', () => {
  const sms = (to: string): OutboundSms => ({ messageId: 1, from: 'Shop', to, text: 'Hi', encoding: 'GSM-7', segments: 1, validityMinutes: 60 });

  async function outcome(to: string) {
    const reports: DeliveryReport[] = [];
    const gateway = new SimulatorGateway({
      report: async (report) => {
        reports.push(report);
        return true;
      },
      latencyMs: 1,
    });
    const result = await gateway.submit(sms(to));
    await jest.advanceTimersByTimeAsync(20);
    gateway.close();
    return { result, statuses: reports.map((report) => report.status) };
  }

  it.each([
    ['447400123450', ['DELIVRD']],
    ['447400123456', ['UNDELIV']],
    ['447400123458', []],
    ['447400123459', ['PDLIVRD', 'DELIVRD']],
  ])('accepts %s and reports %j', async (to, statuses) => {
    const { result, statuses: reported } = await outcome(to);
    expect(result).toEqual({ outcome: 'accepted', gatewayMessageId: expect.stringMatching(/^sim-/) });
    expect(reported).toEqual(statuses);
  });

  it('rejects recipients ending in 7 at submit', async () => {
    const { result, statuses } = await outcome('447400123457');
    expect(result).toEqual({ outcome: 'rejected', reason: expect.stringContaining('7') });
    expect(statuses).toEqual([]);
  });

  it('gives every accepted message its own gateway id', async () => {
    const gateway = new SimulatorGateway({ report: async () => true });
    const ids = await Promise.all([1, 2, 3].map(() => gateway.submit(sms('447400123450'))));
    expect(new Set(ids.map((r) => (r.outcome === 'accepted' ? r.gatewayMessageId : ''))).size).toBe(3);
  });
});

describe('SimulatorGateway report retries', () => {
  const sms = (to: string): OutboundSms => ({ messageId: 1, from: 'Shop', to, text: 'Hi', encoding: 'GSM-7', segments: 1, validityMinutes: 60 });

  it('offers a report again while the service does not know the gateway id yet, in order', async () => {
    const taken: string[] = [];
    let offers = 0;
    const gateway = new SimulatorGateway({
      // Unknown for the first two offers (the submit is still being recorded), then taken.
      report: async (report) => {
        offers++;
        if (offers <= 2) return false;
        taken.push(report.status);
        return true;
      },
      latencyMs: 1,
    });
    await gateway.submit(sms('447400123459'));
    // Offered at 1 ms, then a second apart; each next report follows its latency after.
    await jest.advanceTimersByTimeAsync(2_000);
    expect({ offers, taken }).toEqual({ offers: 2, taken: [] });
    await jest.advanceTimersByTimeAsync(1);
    expect({ offers, taken }).toEqual({ offers: 3, taken: ['PDLIVRD'] });
    await jest.advanceTimersByTimeAsync(1);
    gateway.close();
    expect(taken).toEqual(['PDLIVRD', 'DELIVRD']);
    expect(offers).toBe(4);
  });
});
