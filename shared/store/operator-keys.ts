import type { Key } from './keys';

/**
 * Key formats of the operator API's items, apart from keys.ts so that only the operator
 * API's functions and the admin CLI carry them.
 *
 * | entity        | pk                | sk          | gsi1pk    | gsi1sk    |
 * |---------------|-------------------|-------------|-----------|-----------|
 * | OperatorToken | OPERATOR#<sha256> | #OPERATOR   | OPERATORS | <tokenId> |
 * | AuditEntry    | AUDIT             | ENTRY#<id>  |           |           |
 */

const OPERATOR_TOKENS = 'OPERATORS';
const AUDIT_LOG = 'AUDIT';

export const operatorKeys = {
  operatorToken: (hash: string): Key => ({ pk: `OPERATOR#${hash}`, sk: '#OPERATOR' }),
  operatorTokenIndex: (tokenId: string) => ({ gsi1pk: OPERATOR_TOKENS, gsi1sk: tokenId }),
  operatorTokens: () => OPERATOR_TOKENS,
  /** The audit log: one partition (changes come at a person's pace), entries by ULID. */
  auditEntry: (id: string): Key => ({ pk: AUDIT_LOG, sk: `ENTRY#${id}` }),
  auditLog: () => AUDIT_LOG,
};
