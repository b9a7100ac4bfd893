/** The operator API's records as the console reads them (the domain objects the CLI's --json prints). */
export interface Account {
  id: number;
  name: string;
  timeZone: string;
  currency: string;
  status: 'active' | 'blocked';
  createdAt: string;
  sending: {
    signatures: Record<string, { approved: boolean; createdAt: string }>;
    defaultSignature: string | null;
    tariff: Record<string, number>;
    moderation: 'none' | 'all';
  };
  /** Requests per second; null: the service's default, 0: unlimited. */
  rateLimit: number | null;
}

export interface ApiKey {
  keyId: string;
  accountId: number;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface Link {
  id: number;
  accountId: number;
  code: string;
  shortLink: string;
  fullLink: string;
  status: 0 | 1;
  moderatorStatus: 0 | 1;
  moderatorComment: string | null;
  comment: string | null;
  clickCnt: number;
  createdAt: string;
  campaignId: number | null;
}

export interface Campaign {
  id: number;
  accountId: number;
  messageId: number;
  name: string | null;
  status: string;
  createdAt: string;
  sentAt: string | null;
  deferredTo: string | null;
}

/** A campaign held in MODERATION with what its message would send (null if the message is gone). */
export type HeldCampaign = Campaign & { message: { to: string; text: string; from: string } | null };

export interface Message {
  id: number;
  accountId: number;
  campaignId: number;
  from: string;
  to: string;
  text: string;
  status: string;
  segNum: number;
  createdAt: string;
  gateway: string | null;
  gatewayMessageId: string | null;
  submitState: 'ambiguous' | null;
  submitProblem?: string | null;
}

export interface Webhook {
  id: string;
  accountId: number;
  url: string;
  createdAt: string;
  /** Only in the answer that added it. */
  secret?: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  operator: { tokenId: string; name: string };
  action: string;
  target: Record<string, unknown>;
  input: Record<string, unknown>;
  /** `ok`, or the kind of error that refused the change. */
  outcome: string;
  message?: string;
}

export interface Paged<T> {
  items: T[];
  totalItemCount: number;
}

/** An ISO instant as people read it, in the browser's zone: `2026-11-24 12:05:09`. */
export function showInstant(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
