import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutboundSms } from '../../shared/domain/gateway';
import { RECOVERY_CHECK_MS } from '../../shared/domain/message-sending';
import type { QueueHandler } from '../../shared/local/queue';
import type { LocalService } from '../../shared/local/runtime';
import type { SimulatorGateway } from '../../shared/sms/simulator';
import { eventually } from '../support/eventually';
import { adminAsync, callApi, startServer, stop } from '../support/serve-process';

/**
 * Fault test with real processes: the service (bin/serve.ts) is killed (SIGKILL) once while
 * its worker holds a claim on a message whose gateway submit has not happened, and once
 * with a message still in its send queue. After a restart, the queued message goes out
 * exactly once, from the queue's journal, before any recovery check is due; the claimed one
 * is never submitted and is listed as ambiguous for an operator, because it may or may not
 * have reached the gateway.
 */
const DEMO_KEY = 'crash000000000000000000000000000000key01';

describe('send pipeline when the service is killed', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-crash-'));
  const children: ChildProcess[] = [];
  let local: LocalService | undefined;

  afterAll(async () => {
    await Promise.all(children.map((child) => stop(child, 'SIGKILL')));
    await local?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (baseUrl: string, path: string, fields: Record<string, string>) => callApi(baseUrl, DEMO_KEY, path, fields);
  const statusOf = async (baseUrl: string, id: number) => (await api(baseUrl, 'Message/GetSMSStatus', { ids: String(id) })).data[0];

  it('sends a queued message once after a restart and flags the claimed one as ambiguous', async () => {
    // 1. Killed while the worker holds the claim and the (slow) gateway has not taken the message.
    const first = await startServer(dataDir, { demoApiKey: DEMO_KEY, env: { SIMULATOR_SUBMIT_DELAY_MS: '600000' } });
    children.push(first.child);
    const claimed = await api(first.baseUrl, 'Message/SendSmsMessage', { recipient: '+447400123451', text: 'Claimed when killed' });
    expect(claimed.code).toBe(0);
    await eventually(async () => (await statusOf(first.baseUrl, claimed.data.messageId))?.status === 'ENQUEUD');
    await stop(first.child, 'SIGKILL');

    // 2. Killed with a message accepted but still in the queue (its worker is off).
    const second = await startServer(dataDir, { demoApiKey: DEMO_KEY, env: { LOCAL_QUEUE_CONSUMERS: 'off' } });
    children.push(second.child);
    const queued = await api(second.baseUrl, 'Message/SendSmsMessage', { recipient: '+447400123450', text: 'Queued when killed' });
    expect(queued.code).toBe(0);
    expect(await statusOf(second.baseUrl, queued.data.messageId)).toMatchObject({ status: 'NEW' });
    // A kill loses what the queue's last commit window (20 ms) gathered: the message is
    // kept once that window is past, so the kill comes well after it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stop(second.child, 'SIGKILL');

    // 3. Back up (in this process, to watch the gateway, then move the clock past the recovery check).
    process.env.SIMULATOR_LATENCY_MS = '20';
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    process.env.LOCAL_QUEUE_CONSUMERS = 'off'; // the worker starts once the gateway is watched
    const { startLocal } = await import('../../shared/local/runtime');
    local = await startLocal({ port: 0, dataDir, demoApiKey: DEMO_KEY });
    delete process.env.LOCAL_QUEUE_CONSUMERS;
    const submits: number[] = [];
    (local.runtime.gateway as SimulatorGateway).observe((sms: OutboundSms) => submits.push(sms.messageId));
    local.queues.queues.sms.consume((await import('../../functions/sms-worker')).handler as QueueHandler);

    // The queue kept the message: it goes out without waiting for its recovery check.
    await eventually(async () => (await statusOf(local!.baseUrl, queued.data.messageId))?.status === 'DELIVRD');
    local.runtime.clock = () => new Date(Date.now() + RECOVERY_CHECK_MS + 60_000);
    await local.runtime.scheduler.sweep();
    await local.runtime.scheduler.sweep(); // a second sweep changes nothing
    await local.queues.drain();
    expect(submits).toEqual([queued.data.messageId]);
    expect(await statusOf(local.baseUrl, claimed.data.messageId)).toMatchObject({ status: 'ENQUEUD' });

    const listed = await adminAsync(dataDir, 'message', 'ambiguous', '--json');
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id: claimed.data.messageId, status: 'ENQUEUD', submitState: 'ambiguous', gatewayMessageId: null }),
    ]);
  });
});
