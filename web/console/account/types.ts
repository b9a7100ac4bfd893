/** The public API's records as the console reads them (interface spec §2). */
export interface Link {
  id: number;
  code: string;
  shortLink: string;
  fullLink: string;
  status: 0 | 1;
  moderatorStatus: 0 | 1;
  clickCnt: number;
  createTs: string;
  expirationDate: string | null;
  comment: string | null;
  moderatorComment: string | null;
}

export interface Message {
  id: number;
  campaignId: number;
  segNum: number;
  segUserBuy: number | null;
  from: string;
  to: string;
  text: string;
  status: string;
  startSendTs: string | null;
  statusUpdateTs: string | null;
}

export interface StatusRecord {
  id: number;
  status: string;
  segNum: number;
  startSendTs: string | null;
  statusUpdateTs: string | null;
}

export interface Page<T> {
  items: T[];
  totalItemCount: number;
}

/** The SPEC's message statuses, for the list's filter. */
export const MESSAGE_STATUSES = ['NEW', 'ENQUEUD', 'ACCEPTD', 'DELIVRD', 'PDLIVRD', 'UNDELIV', 'REJECTD', 'EXPIRED', 'DELETED'] as const;

/** `YYYY-MM-DD HH-MM-SS` (the API's answer layout) as `YYYY-MM-DD HH:MM:SS` for people. */
export function showTime(value: string | null): string {
  return value ? value.replace(/ (\d{2})-(\d{2})-(\d{2})$/, ' $1:$2:$3') : '—';
}
