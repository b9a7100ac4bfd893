import type { AddressInfo } from 'node:net';
import { createServer, type PDU, type Session } from 'smpp';

export type ReceiptStat = 'DELIVRD' | 'UNDELIV' | 'REJECTD' | 'EXPIRED';

/**
 * An SMSC for tests, on the `smpp` package's server side: it binds any ESME (Kannel's SMPP
 * client), answers each submit_sm with a message id and, a little later, sends a delivery
 * receipt (deliver_sm with the receipt text and TLVs) whose `stat:` the recipient decides:
 * last digit 6 → UNDELIV, 7 → REJECTD, 8 → no receipt at all, 9 → the first part of a
 * concatenated message DELIVRD and the others UNDELIV, 3 → the first part DELIVRD and no
 * receipt for the others; anything else DELIVRD. A part is known by its concatenation
 * header (UDH). Message ids are hexadecimal in upper case, as several real SMSCs give them.
 */
export async function startSmscSimulator(options: { reportDelayMs?: number } = {}) {
  const submits: { id: string; to: string; from: string; part: boolean; partOf?: [number, number]; dataCoding: number; text: string }[] = [];
  const sessions = new Set<Session>();
  const timers = new Set<NodeJS.Timeout>();
  let sequence = 0x1f0;

  const server = createServer({}, (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => sessions.delete(session));
    for (const bind of ['bind_transceiver', 'bind_transmitter', 'bind_receiver']) {
      session.on(bind, (pdu: PDU) => session.send(pdu.response({ system_id: 'SMSCSIM' })));
    }
    session.on('enquire_link', (pdu: PDU) => session.send(pdu.response()));
    session.on('unbind', (pdu: PDU) => {
      session.send(pdu.response());
      session.close();
    });
    session.on('submit_sm', (pdu: PDU) => {
      const id = (sequence++).toString(16).toUpperCase();
      const to = String(pdu.destination_addr);
      const part = (Number(pdu.esm_class) & 0x40) !== 0;
      const message = pdu.short_message as { message?: string | Buffer; udh?: Buffer[] } | undefined;
      // The concatenation element: 00 03 reference parts part
      const concatenation = message?.udh?.find((element) => element[0] === 0x00 && element[1] === 0x03);
      const partOf = concatenation ? ([concatenation[4], concatenation[3]] as [number, number]) : undefined;
      submits.push({
        id,
        to,
        from: String(pdu.source_addr),
        part,
        partOf,
        dataCoding: Number(pdu.data_coding),
        text: String(message?.message ?? ''),
      });
      session.send(pdu.response({ message_id: id }));
      const stat = statFor(to, partOf?.[0] ?? 1);
      if (stat === undefined) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        const date = receiptDate(new Date());
        session.deliver_sm({
          source_addr: to,
          destination_addr: pdu.source_addr,
          esm_class: 0x04,
          short_message: {
            message: `id:${id} sub:001 dlvrd:${stat === 'DELIVRD' ? '001' : '000'} submit date:${date} done date:${date} stat:${stat} err:000 text:`,
          },
          receipted_message_id: id,
          message_state: MESSAGE_STATE[stat],
        });
      }, options.reportDelayMs ?? 50);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    submits,
    async close(): Promise<void> {
      for (const timer of timers) clearTimeout(timer);
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const MESSAGE_STATE: Record<ReceiptStat, number> = { DELIVRD: 2, EXPIRED: 3, UNDELIV: 5, REJECTD: 8 };

function statFor(to: string, partIndex: number): ReceiptStat | undefined {
  const digit = to.at(-1);
  if (digit === '8') return undefined;
  if (digit === '6') return 'UNDELIV';
  if (digit === '7') return 'REJECTD';
  if (digit === '9') return partIndex === 1 ? 'DELIVRD' : 'UNDELIV';
  if (digit === '3') return partIndex === 1 ? 'DELIVRD' : undefined;
  return 'DELIVRD';
}

/** YYMMDDhhmm, the receipt's date format. */
function receiptDate(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(2, 12);
}
