import { type Account, EMPTY_SENDING_SETTINGS } from '../../shared/domain/accounts';
import type { Link } from '../../shared/domain/links';
import type { Message } from '../../shared/domain/messages';

/** Accounts, links and messages for tests: every field set, any of them overridden. */

export function anAccount(fields: Partial<Account> = {}): Account {
  return {
    id: 1,
    name: 'Shop',
    timeZone: 'UTC',
    currency: 'USD',
    status: 'active',
    createdAt: '2026-01-01T00:00:00Z',
    sending: EMPTY_SENDING_SETTINGS,
    rateLimit: null,
    ...fields,
  };
}

export function aLink(fields: Partial<Link> = {}): Link {
  return {
    id: 1,
    accountId: 1,
    code: 'abc',
    fullLink: 'https://example.com/',
    status: 1,
    moderatorStatus: 1,
    moderatorComment: null,
    comment: null,
    expirationDate: null,
    expiresAt: null,
    clickCnt: 0,
    redirectCnt: 0,
    createdAt: '2026-01-02T03:04:05.000Z',
    campaignId: null,
    trackingCode: null,
    ...fields,
  };
}

export function aMessage(fields: Partial<Message> = {}): Message {
  return {
    id: 1,
    accountId: 1,
    campaignId: 1,
    from: 'Shop',
    to: '4915112345678',
    text: 'Hello',
    segNum: 1,
    segUserBuy: 0.05,
    status: 'DELIVRD',
    uuid: '01J00000000000000000000000',
    countryA2: 'DE',
    validityMinutes: 4320,
    createdAt: '2026-01-02T03:04:05.000Z',
    startSendAt: '2026-01-02T03:04:06.000Z',
    statusUpdatedAt: '2026-01-02T03:05:00.000Z',
    gateway: null,
    gatewayMessageId: null,
    submitState: null,
    ...fields,
  };
}
