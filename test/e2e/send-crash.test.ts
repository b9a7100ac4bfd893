import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutboundSms } from '../../shared/domain/gateway';
import { MIN_DEFER_MS, RECOVERY_CHECK_MS } from '../../shared/domain/message-sending';
import { isFinal } from '../../shared/domain/message-status';
import type { Message } from '../../shared/domain/messages';
import type { LocalService } from '../../shared/local/runtime';
import type { SimulatorGateway } from '../../shared/sms/simulator';
import { eventually } from '../support/eventually';
import { formBody } from '../support/local-service';
import { startServer, stop } from '../support/serve-process';

/**
 * Kill test of Message/SendSmsMessage with real processes: the service (bin/serve.ts) kills
 * itself with SIGKILL right after one step of sending has been written (LOCAL_CRASH_AFTER),
 * once for each step, all on one data directory. After a restart, with the clock moved by
 * the recovery check delay, every message stored by then reaches a final status, each
 * submitted once; a deferred one does at its time.
 */
const DEMO_KEY = 'crash000000000000000000000000000000key02';
const NOW_STEPS = ['schedule:recover', 'createCampaign', 'createMessage', 'enqueue'];
const DEFERRED_STEPS = ['schedule:send', 'createMessage'];

describe('Message/SendSmsMessage when the service is killed mid-send', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shortsms-send-crash-'));
  const children: ChildProcess[] = [];
  let local: LocalService | undefined;

  afterAll(async () => {
    await Promise.all(children.map((child) => stop(child, 'SIGKILL')));
    await local?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends from a service that dies after `step`; the client never gets an answer. */
  async function sendKilledAfter(step: string, fields: Record<string, string>): Promise<void> {
    const server = await startServer(dataDir, { demoApiKey: DEMO_KEY, env: { LOCAL_CRASH_AFTER: step } });
    children.push(server.child);
    const exited = once(server.child, 'exit');
    const answer = await fetch(`${server.baseUrl}/service/Message/SendSmsMessage?apiKey=${DEMO_KEY}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(fields),
    }).then(
      (response) => response.text(),
      () => undefined,
    );
    expect(answer).toBeUndefined();
    expect(await exited).toEqual([null, 'SIGKILL']);
  }

  const unsettled = (messages: Message[]) =>
    messages
      .filter((message) => !isFinal(message.status) && message.submitState !== 'ambiguous')
      .map((message) => `${message.text}: ${message.status}`);

  it('brings every stored message to a final status within the check delay, whatever step the process died after', async () => {
    // Prepare: one send killed after each step, immediate and deferred.
    for (const step of NOW_STEPS) await sendKilledAfter(step, { recipient: '+447400123450', text: `Now, killed after ${step}` });
    const deferredTo = new Date(Date.now() + MIN_DEFER_MS + 5 * 60_000);
    const deferredToTs = deferredTo.toISOString().slice(0, 19).replace('T', ' '); // the demo account's zone is UTC
    for (const step of DEFERRED_STEPS) {
      await sendKilledAfter(step, { recipient: '+447400123451', text: `Deferred, killed after ${step}`, 'params[deferredToTs]': deferredToTs });
    }

    // Act: back up (in this process, to watch the gateway and move the clock) once the checks are due.
    process.env.SIMULATOR_LATENCY_MS = '20';
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
    const { startLocal } = await import('../../shared/local/runtime');
    local = await startLocal({ port: 0, dataDir, demoApiKey: DEMO_KEY });
    const service = local;
    const submits: number[] = [];
    (service.runtime.gateway as SimulatorGateway).observe((sms: OutboundSms) => submits.push(sms.messageId));
    const stored = () => service.runtime.messageStore.listByAccount(service.demo.accountId);
    service.runtime.clock = () => new Date(Date.now() + RECOVERY_CHECK_MS);
    await service.runtime.scheduler.sweep();
    const sentNow = async () => (await stored()).filter((message) => message.text.startsWith('Now'));
    await eventually(async () => unsettled(await sentNow()).length === 0).catch(() => undefined);

    // Assess: nothing sent for now is left behind.
    const texts = (await stored()).map((message) => message.text);
    expect(texts).toEqual(
      expect.arrayContaining(['Now, killed after createMessage', 'Now, killed after enqueue', 'Deferred, killed after createMessage']),
    );
    expect(unsettled(await sentNow())).toEqual([]);

    // Act: the deferred time comes.
    service.runtime.clock = () => new Date(deferredTo.getTime() + 60_000);
    await service.runtime.scheduler.sweep();
    await eventually(async () => unsettled(await stored()).length === 0).catch(() => undefined);

    // Assess: the deferred one went out too, and each message exactly once.
    expect(unsettled(await stored())).toEqual([]);
    await service.queues.drain();
    expect([...submits].sort()).toEqual((await stored()).map((message) => message.id).sort());
  }, 180_000); // six starts of the service
});
