import * as v from 'valibot';
import { MESSAGE_STATUSES } from '../../domain/message-status';

/**
 * What each operation answers in the envelope's `data` on success (interface spec §2 and §4,
 * SPEC §5–6), as valibot schemas so the document is generated like the requests. Nothing
 * validates answers with these: they describe what shared/api/present.ts and the operations
 * return, and the OpenAPI tests compare them with real answers.
 */

const responseTs = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}$/),
  v.description('YYYY-MM-DD HH-MM-SS, in the account’s time zone'),
);
const id = v.pipe(v.number(), v.integer());
const flag = v.picklist([0, 1]);
const messageStatus = v.picklist(MESSAGE_STATUSES);

/** Link/Get, and the items of Link/List (present.ts). */
export const link = v.object({
  id,
  status: v.pipe(flag, v.description('1 active, 0 inactive')),
  moderatorStatus: v.pipe(flag, v.description('1 approved, 0 blocked by a moderator')),
  clickCnt: id,
  redirectCnt: id,
  createTs: responseTs,
  expirationDate: v.nullable(v.pipe(v.string(), v.description('YYYY-MM-DD, the last day the link works'))),
  code: v.string(),
  fullLink: v.string(),
  shortLink: v.string(),
  comment: v.nullable(v.string()),
  moderatorComment: v.nullable(v.string()),
});

export const linkCreated = v.object({ id, code: v.string(), shortLink: v.string() });

export const linksDeleted = v.object({
  processed: v.array(id),
  // An id that is no number comes back as given.
  notProcessed: v.array(v.union([id, v.string()])),
});

export const campaignLinks = v.array(
  v.object({
    id,
    code: v.string(),
    fullLink: v.string(),
    shortLink: v.string(),
    clickCnt: id,
    redirectCnt: id,
    comment: v.nullable(v.string()),
  }),
);

export const linkStats = v.object({
  items: v.array(
    v.pipe(
      v.objectWithRest({ param: v.pipe(v.string(), v.description('The period: YYYY-MM, YYYY-MM-DD, YYYY-MM-DD HH:00 or YYYY-MM-DD HH:MM')) }, id),
      v.description('One item per period; clicksN and redirectsN for the N-th requested id (from 0)'),
    ),
  ),
  totals: v.pipe(v.string(), v.description('All clicks of the requested links in the interval')),
});

export const linkPage = v.object({ items: v.array(link), totalItemCount: id });

export const shortLink = v.pipe(v.string(), v.description('The link’s short link'));

export const deliveryStatuses = v.array(
  v.object({
    id,
    status: messageStatus,
    segNum: id,
    startSendTs: v.nullable(responseTs),
    statusUpdateTs: v.nullable(responseTs),
  }),
);

export const messagePage = v.object({
  items: v.array(
    v.object({
      id,
      campaignId: id,
      segNum: id,
      segUserBuy: v.pipe(v.number(), v.description('Price of one segment in the account’s currency')),
      from: v.string(),
      to: v.string(),
      text: v.string(),
      status: messageStatus,
      groups: v.string(),
      uuid: v.string(),
      countryA2: v.optional(v.pipe(v.string(), v.description('Only with withNumberInfo=1'))),
      operatorName: v.optional(v.pipe(v.string(), v.description('Only with withNumberInfo=1'))),
      startSendTs: v.nullable(responseTs),
      statusUpdateTs: v.nullable(responseTs),
    }),
  ),
  totalItemCount: id,
});

export const messageSent = v.object({
  campaignId: id,
  messageId: id,
  status: v.pipe(v.picklist([1, 2]), v.description('1: the campaign waits for moderation; 2: it goes out without moderation')),
});

/** `data` of a validation error (code 1): parameter name (without `data[...]`) → messages. */
export const fieldErrors = v.record(v.string(), v.array(v.string()));
