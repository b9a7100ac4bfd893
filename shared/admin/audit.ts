import * as v from 'valibot';
import type { AuditLog } from '../domain/audit';
import { MAX_AUDIT_PAGE } from '../domain/audit';
import { adminOperation } from './operation';

export interface AuditDeps {
  audit: Pick<AuditLog, 'list'>;
}

const limitMessage = `limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`;

/** The audit log, newest first; `before` (an entry's id) pages back. */
export const auditList = adminOperation({
  path: 'audit/list',
  input: v.strictObject({
    limit: v.optional(
      v.pipe(
        v.string(limitMessage),
        v.regex(/^\d{1,3}$/, limitMessage),
        v.transform(Number),
        v.minValue(1, limitMessage),
        v.maxValue(MAX_AUDIT_PAGE, limitMessage),
      ),
      '50',
    ),
    before: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'before must be the id of an audit entry'))),
  }),
  run: ({ limit, before }, { audit }: AuditDeps) => audit.list(limit, before),
});
