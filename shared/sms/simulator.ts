import type { DeliveryReport, OutboundSms, SmsGateway, SubmitResult } from '../domain/gateway';
import { errorField, logger } from '../telemetry';

/**
 * The built-in gateway for development and tests: no network, deterministic outcomes
 * chosen by the recipient's last digit, and delivery reports delivered through the same
 * path real gateways' reports take (`report`).
 *
 * | last digit | outcome                                   |
 * |------------|-------------------------------------------|
 * | 0–5        | accepted, then DELIVRD                    |
 * | 6          | accepted, then UNDELIV                    |
 * | 7          | rejected at submit (REJECTD)              |
 * | 8          | accepted, then no report: EXPIRED once its validity passes |
 * | 9          | accepted, then PDLIVRD, then DELIVRD       |
 */
/** How often a report the service did not take is offered, and how far apart. */
const REPORT_ATTEMPTS = 10;
const RETRY_GAP_MS = 1_000;

export class SimulatorGateway implements SmsGateway {
  readonly name = 'simulator';
  #sequence = 0;
  readonly #pending = new Set<NodeJS.Timeout>();
  readonly #observers: ((sms: OutboundSms) => void)[] = [];

  constructor(
    private readonly options: {
      /**
       * Where delivery reports go: the service's delivery-report path. False means the
       * gateway id is not known (yet: a report can overtake the recording of the submit),
       * and the report is offered again later, as an SMSC repeats an unacknowledged one.
       */
      report: (report: DeliveryReport) => Promise<boolean>;
      /** Delay before each delivery report. */
      latencyMs?: number;
      /** How long a submit takes to be answered (a slow gateway). */
      submitDelayMs?: number;
      clock?: () => Date;
    },
  ) {}

  /** Calls `observer` with every message the simulator takes (benchmarks and fault tests count submits). */
  observe(observer: (sms: OutboundSms) => void): void {
    this.#observers.push(observer);
  }

  async submit(sms: OutboundSms): Promise<SubmitResult> {
    if (this.options.submitDelayMs) await new Promise((resolve) => setTimeout(resolve, this.options.submitDelayMs).unref());
    for (const observer of this.#observers) observer(sms);
    const digit = Number(sms.to.at(-1));
    if (digit === 7) return { outcome: 'rejected', reason: 'Simulated rejection (recipient ends in 7)' };
    const gatewayMessageId = `sim-${Date.now().toString(36)}-${(this.#sequence++).toString(36)}`;
    const reports: DeliveryReport['status'][] = digit === 6 ? ['UNDELIV'] : digit === 8 ? [] : digit === 9 ? ['PDLIVRD', 'DELIVRD'] : ['DELIVRD'];
    this.#schedule(gatewayMessageId, reports);
    return { outcome: 'accepted', gatewayMessageId };
  }

  #schedule(gatewayMessageId: string, statuses: DeliveryReport['status'][]): void {
    const latency = this.options.latencyMs ?? 0;
    // Each report after the one before it has been taken, so they arrive in order.
    const deliver = (index: number, attempt: number) => {
      const status = statuses[index];
      if (status === undefined) return;
      const timer = setTimeout(
        () => {
          this.#pending.delete(timer);
          const at = this.options.clock?.() ?? new Date();
          this.options.report({ gateway: this.name, gatewayMessageId, status, at }).then(
            (taken) => {
              if (taken) deliver(index + 1, 1);
              else if (attempt < REPORT_ATTEMPTS) deliver(index, attempt + 1);
            },
            (error) => {
              logger.error('Simulated delivery report failed', { gatewayMessageId, error: errorField(error) });
              if (attempt < REPORT_ATTEMPTS) deliver(index, attempt + 1);
            },
          );
        },
        Math.max(latency, attempt > 1 ? RETRY_GAP_MS : 0),
      );
      timer.unref();
      this.#pending.add(timer);
    };
    deliver(0, 1);
  }

  /** Drops reports not yet delivered (the process is stopping). */
  close(): void {
    for (const timer of this.#pending) clearTimeout(timer);
    this.#pending.clear();
  }
}
