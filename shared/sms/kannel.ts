import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OutboundSms, SmsGateway, SubmitResult } from '../domain/gateway';
import type { MessageStatus } from '../domain/message-status';
import { splitSegments } from '../domain/segments';
import { type SecretSetting, secretReader } from '../secrets';

export interface KannelSettings {
  /** smsbox's sendsms URL, e.g. `http://127.0.0.1:13013/cgi-bin/sendsms`. */
  sendsmsUrl: string;
  username: string;
  /** The sendsms user's password: its value, or an SSM parameter holding it. */
  password: SecretSetting;
  /** Kannel's smsc-id to route through; unset lets Kannel choose. */
  smsc: string | undefined;
  /** Where Kannel reaches the service's delivery-report endpoint (its base URL). */
  reportBaseUrl: string;
  /** Signs each message's dlr-url; the endpoint refuses reports without a valid signature. */
  reportSecret: SecretSetting;
  /** How long a submit may take before its outcome counts as unknown. */
  timeoutMs: number;
  /** Where SSM parameters are read. */
  region: string;
}

/** The delivery-report path this gateway's dlr-url points at. */
export const KANNEL_REPORT_PATH = '/dlr/kannel';

/**
 * Kannel's HTTP sendsms (smsbox). Each submit asks for every delivery report (dlr-mask 31)
 * at a dlr-url that names our message and carries a signature of it, so reports are tied
 * to the message without a lookup and forged ones are refused. UCS-2 texts go as coding 2
 * (Kannel converts from UTF-8); validity is in minutes, as Kannel takes it.
 *
 * smsbox answers `0: Accepted for delivery` (202) or `3: Queued for later delivery` when it
 * has the message; a 4xx means it refused it (never sent); anything else (a timeout, a
 * 5xx, a dropped connection) leaves the outcome unknown: ambiguous.
 */
export class KannelGateway implements SmsGateway {
  readonly name = 'kannel';

  readonly #password: () => Promise<string>;
  readonly #reportSecret: () => Promise<string>;

  constructor(private readonly settings: KannelSettings) {
    this.#password = secretReader(settings.password, settings.region);
    this.#reportSecret = secretReader(settings.reportSecret, settings.region);
  }

  /**
   * One sendsms call, or one per part for a concatenated message. Kannel would split a
   * long text itself, but it passes on the delivery report of the first part only, so a
   * message delivered in part would look delivered. Each part therefore goes as its own
   * sendsms with the concatenation header (UDH) and a dlr-url naming the part; the
   * message's status follows from all the parts' reports (statusOfParts). The first
   * part decides the outcome of the submit; a later part that Kannel refuses is reported
   * as such, one without an answer waits for its report or the message's expiry.
   */
  async submit(sms: OutboundSms): Promise<SubmitResult> {
    // Before anything goes out: failing to read a secret is an error, not an unknown outcome.
    const [password, reportSecret] = await Promise.all([this.#password(), this.#reportSecret()]);
    const parts = splitSegments(sms.text);
    if (parts.length === 0) parts.push(sms.text);
    const concatenated = parts.length > 1;
    const reference = sms.messageId % 256;
    const refusedParts: number[] = [];
    for (const [index, text] of parts.entries()) {
      const part = index + 1;
      const piece = concatenated ? { text, part, udh: concatenationHeader(reference, parts.length, part) } : { text };
      const result = await this.#send(sms, { password, reportSecret, ...piece });
      if (part === 1 && result.outcome !== 'accepted') return result;
      if (result.outcome === 'rejected') refusedParts.push(part);
    }
    return { outcome: 'accepted', gatewayMessageId: `msg-${sms.messageId}`, ...(refusedParts.length > 0 && { refusedParts }) };
  }

  async #send(
    sms: OutboundSms,
    piece: { password: string; reportSecret: string; text: string; part?: number; udh?: Uint8Array },
  ): Promise<{ outcome: 'accepted' } | Exclude<SubmitResult, { outcome: 'accepted' }>> {
    const { settings } = this;
    const query = new URLSearchParams({
      username: settings.username,
      password: piece.password,
      from: sms.from,
      to: sms.to,
      text: piece.text,
      charset: 'UTF-8',
      coding: sms.encoding === 'UCS-2' ? '2' : '0',
      validity: String(sms.validityMinutes),
      'dlr-mask': '31',
      'dlr-url': kannelReportUrl({ reportBaseUrl: settings.reportBaseUrl, reportSecret: piece.reportSecret }, sms.messageId, piece.part),
    });
    if (settings.smsc) query.set('smsc', settings.smsc);
    // Binary, so percent-encoded byte by byte (URLSearchParams would encode it as UTF-8).
    const udh = piece.udh ? `&udh=${[...piece.udh].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('')}` : '';
    let response: Response;
    let body: string;
    try {
      response = await fetch(`${settings.sendsmsUrl}?${query}${udh}`, { signal: AbortSignal.timeout(settings.timeoutMs) });
      body = (await response.text()).trim();
    } catch (error) {
      return { outcome: 'ambiguous', reason: `Kannel did not answer: ${(error as Error).message}` };
    }
    // Kannel gives no id of its own at submit; reports come to the dlr-url of this message.
    if (response.status === 202 || (response.ok && /^[03]:/.test(body))) return { outcome: 'accepted' };
    if (response.status >= 400 && response.status < 500)
      return { outcome: 'rejected', reason: `Kannel refused the message: ${response.status} ${body}` };
    return { outcome: 'ambiguous', reason: `Kannel answered ${response.status} ${body}` };
  }
}

/** The user data header of one part of a concatenated message (8-bit reference). */
export function concatenationHeader(reference: number, parts: number, part: number): Uint8Array {
  return Uint8Array.of(0x05, 0x00, 0x03, reference & 0xff, parts, part);
}

/**
 * The dlr-url for one message, or one part of it: Kannel fills in %d (report type), %A
 * (SMSC answer), %F (SMSC message id), %T (time). The signature covers message and part.
 */
export function kannelReportUrl(settings: { reportBaseUrl: string; reportSecret: string }, messageId: number, part?: number): string {
  const base = settings.reportBaseUrl.replace(/\/+$/, '');
  const partQuery = part === undefined ? '' : `&part=${part}`;
  return `${base}${KANNEL_REPORT_PATH}?message=${messageId}${partQuery}&sig=${reportSignature(settings.reportSecret, messageId, part)}&type=%d&answer=%A&fid=%F&ts=%T`;
}

export function reportSignature(secret: string, messageId: number, part?: number): string {
  const subject = part === undefined ? `kannel-dlr:${messageId}` : `kannel-dlr:${messageId}:${part}`;
  return createHmac('sha256', secret).update(subject).digest('hex').slice(0, 32);
}

export function isValidReportSignature(secret: string, messageId: number, signature: string, part?: number): boolean {
  const expected = Buffer.from(reportSignature(secret, messageId, part));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What a Kannel report says, in our statuses; undefined for reports that change nothing
 * (8: the SMSC took it, 4: buffered). The receipt's `stat:` wins when there is one.
 */
export function kannelReportStatus(type: number, answer: string): MessageStatus | undefined {
  const stat = /\bstat:([A-Z]+)/i.exec(answer)?.[1]?.toUpperCase();
  const byStat: Record<string, MessageStatus> = {
    DELIVRD: 'DELIVRD',
    UNDELIV: 'UNDELIV',
    REJECTD: 'REJECTD',
    EXPIRED: 'EXPIRED',
    DELETED: 'DELETED',
  };
  if ((type === 1 || type === 2) && stat && byStat[stat]) return byStat[stat];
  if (type === 1) return 'DELIVRD';
  if (type === 2) return 'UNDELIV';
  if (type === 16) return 'REJECTD';
  return undefined;
}
