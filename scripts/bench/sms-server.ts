/**
 * The local service for bench:sms, in a process of its own: the same startLocal as
 * `npm start`, plus a count of what the simulator gateway was handed, per message,
 * answered over the IPC channel when the benchmark asks.
 */
import type { OutboundSms } from '../../shared/domain/gateway';
import type { SimulatorGateway } from '../../shared/sms/simulator';
import { createStore } from '../../shared/store/client';
import { MessagesRepository } from '../../shared/store/messages-repo';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { startLocal } = await import('../../shared/local/runtime');
const local = await startLocal({ port: 0, dataDir: process.env.DATA_DIR, demoApiKey: process.env.DEMO_API_KEY });
const submits = new Map<number, number>();
const calls = new Map<string, number>();
local.runtime.store.db.middlewareStack.add(
  (next, context) => (args) => {
    const input = args.input as {
      Key?: { pk?: string };
      Item?: { pk?: string };
      ExpressionAttributeValues?: Record<string, unknown>;
      IndexName?: string;
    };
    const queried = input.ExpressionAttributeValues?.[':pk'];
    const pk = String(input.Key?.pk ?? input.Item?.pk ?? (typeof queried === 'string' ? `${input.IndexName ?? ''}${queried}` : '')).replace(
      /#.*/,
      '',
    );
    const name = `${context.commandName}${process.env.BENCH_CALLS_BY_KEY ? `:${pk}` : ''}`;
    calls.set(name, (calls.get(name) ?? 0) + 1);
    return next(args);
  },
  { step: 'initialize', name: 'countCalls' },
);
(local.runtime.gateway as SimulatorGateway).observe((sms: OutboundSms) => submits.set(sms.messageId, (submits.get(sms.messageId) ?? 0) + 1));

export interface MessageReport {
  id: number;
  status: string | undefined;
  createdAt: string | undefined;
  startSendAt: string | null | undefined;
  submits: number;
}

// The benchmark's own reads go through a client of their own, outside the call counts.
const reader = new MessagesRepository(createStore(local.runtime.config));

process.on('message', async (request: { ids: number[] }) => {
  const reports: MessageReport[] = [];
  for (const id of request.ids) {
    const message = await reader.get(id);
    reports.push({ id, status: message?.status, createdAt: message?.createdAt, startSendAt: message?.startSendAt, submits: submits.get(id) ?? 0 });
  }
  // Submits of messages the benchmark did not send would be duplicates of nothing it knows: count them too.
  const asked = new Set(request.ids);
  const unknown = [...submits.keys()].filter((id) => !asked.has(id)).length;
  process.send!({ reports, unknown, calls: Object.fromEntries(calls) });
});
process.on('SIGTERM', () => {
  void local.close().then(() => process.exit(0));
});
console.log(`Ready: ${local.baseUrl}`);
