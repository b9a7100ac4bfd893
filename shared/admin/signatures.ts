import * as v from 'valibot';
import type { AccountService } from '../domain/account-service';
import { adminOperation, entityIdField, textField } from './operation';

/** Signatures, tariffs and the moderation policy: an account's sending settings. */
export interface SendingDeps {
  accounts: AccountService;
}

const accountId = entityIdField('accountId');
const name = textField('name', 32);

export const signaturesList = adminOperation({
  path: 'signatures/list',
  input: v.strictObject({ accountId }),
  run: async ({ accountId }, { accounts }: SendingDeps) => (await accounts.getAccount(accountId)).sending,
});

export const signaturesAdd = adminOperation({
  path: 'signatures/add',
  input: v.strictObject({ accountId, name }),
  run: ({ accountId, name }, { accounts }: SendingDeps) => accounts.addSignature(accountId, name),
  target: ({ accountId, name }) => ({ accountId, name }),
});

export const signaturesApprove = adminOperation({
  path: 'signatures/approve',
  input: v.strictObject({ accountId, name }),
  run: ({ accountId, name }, { accounts }: SendingDeps) => accounts.approveSignature(accountId, name),
  target: ({ accountId, name }) => ({ accountId, name }),
});

/** `name: null` goes back to the service's signature. */
export const signaturesDefault = adminOperation({
  path: 'signatures/default',
  input: v.strictObject({ accountId, name: v.nullable(name) }),
  run: ({ accountId, name }, { accounts }: SendingDeps) => accounts.setDefaultSignature(accountId, name),
  target: ({ accountId, name }) => ({ accountId, name }),
});

export const tariffsGet = adminOperation({
  path: 'tariffs/get',
  input: v.strictObject({ accountId }),
  run: async ({ accountId }, { accounts }: SendingDeps) => {
    const account = await accounts.getAccount(accountId);
    return { currency: account.currency, tariff: account.sending.tariff };
  },
});

/** `price: null` removes the country's price. */
export const tariffsSet = adminOperation({
  path: 'tariffs/set',
  input: v.strictObject({
    accountId,
    country: v.pipe(v.string('country must be an ISO 3166 alpha-2 code or *'), v.trim()),
    price: v.nullable(v.number('price must be a number from 0, or null to remove it')),
  }),
  run: ({ accountId, country, price }, { accounts }: SendingDeps) => accounts.setPrice(accountId, country, price),
  target: ({ accountId, country }) => ({ accountId, country }),
});

export const moderationSet = adminOperation({
  path: 'moderation/set',
  input: v.strictObject({ accountId, moderation: v.picklist(['none', 'all'], 'moderation must be none or all') }),
  run: ({ accountId, moderation }, { accounts }: SendingDeps) => accounts.setModeration(accountId, moderation),
});
