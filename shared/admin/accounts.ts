import * as v from 'valibot';
import type { AccountService } from '../domain/account-service';
import type { Account } from '../domain/accounts';
import { MAX_ACCOUNT_NAME_LENGTH } from '../domain/accounts';
import { adminOperation, entityIdField, NO_INPUT, textField } from './operation';

export interface AccountsDeps {
  accounts: AccountService;
}

const ACCOUNT_ID = { id: entityIdField('id') };
const timeZone = v.optional(v.pipe(v.string('timeZone must be an IANA time zone name'), v.trim()));
const currency = v.optional(v.pipe(v.string('currency must be an ISO 4217 code'), v.trim(), v.toUpperCase()));

export const accountsList = adminOperation({
  path: 'accounts/list',
  input: NO_INPUT,
  run: (_input, { accounts }: AccountsDeps) => accounts.listAccounts(),
});

export const accountsGet = adminOperation({
  path: 'accounts/get',
  input: v.strictObject(ACCOUNT_ID),
  run: ({ id }, { accounts }: AccountsDeps) => accounts.getAccount(id),
});

export const accountsCreate = adminOperation({
  path: 'accounts/create',
  input: v.strictObject({ name: textField('name', MAX_ACCOUNT_NAME_LENGTH), timeZone, currency }),
  run: (input, { accounts }: AccountsDeps) => accounts.createAccount(input),
  target: (_input, account: Account | undefined) => (account ? { id: account.id } : {}),
});

export const accountsUpdate = adminOperation({
  path: 'accounts/update',
  input: v.strictObject({
    ...ACCOUNT_ID,
    name: v.optional(textField('name', MAX_ACCOUNT_NAME_LENGTH)),
    timeZone,
    currency,
    rateLimit: v.optional(
      v.nullable(
        v.pipe(
          v.number('rateLimit must be a whole number of requests per second, or null for the default'),
          v.integer('rateLimit must be a whole number'),
        ),
      ),
    ),
  }),
  run: ({ id, ...changes }, { accounts }: AccountsDeps) => accounts.updateAccount(id, changes),
});

export const accountsBlock = adminOperation({
  path: 'accounts/block',
  input: v.strictObject(ACCOUNT_ID),
  run: ({ id }, { accounts }: AccountsDeps) => accounts.updateAccount(id, { status: 'blocked' }),
});

export const accountsUnblock = adminOperation({
  path: 'accounts/unblock',
  input: v.strictObject(ACCOUNT_ID),
  run: ({ id }, { accounts }: AccountsDeps) => accounts.updateAccount(id, { status: 'active' }),
});
