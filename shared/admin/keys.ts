import * as v from 'valibot';
import type { AccountService } from '../domain/account-service';
import { adminOperation, entityIdField, textField } from './operation';

export interface KeysDeps {
  accounts: AccountService;
}

const accountId = entityIdField('accountId');

export const keysList = adminOperation({
  path: 'keys/list',
  input: v.strictObject({ accountId }),
  run: ({ accountId }, { accounts }: KeysDeps) => accounts.listKeys(accountId),
});

/** The key in clear is in the answer only: the audit entry names its id. */
export const keysIssue = adminOperation({
  path: 'keys/issue',
  input: v.strictObject({ accountId }),
  run: ({ accountId }, { accounts }: KeysDeps) => accounts.issueKey(accountId),
  target: ({ accountId }, issued) => ({ accountId, ...(issued && { keyId: issued.apiKey.keyId }) }),
});

export const keysRevoke = adminOperation({
  path: 'keys/revoke',
  input: v.strictObject({ accountId, keyId: textField('keyId', 64) }),
  run: async ({ accountId, keyId }, { accounts }: KeysDeps) => {
    await accounts.revokeKey(accountId, keyId);
    return { keyId, revoked: true };
  },
});
