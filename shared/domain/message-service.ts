/**
 * Messages were one service here; they are now MessageSending (message-sending.ts),
 * Moderation (moderation.ts), MessageQueries with the pure Message/List functions
 * (message-queries.ts, message-listing.ts), CampaignFollowUp (campaign-follow-up.ts) and
 * the Scheduler (scheduler.ts). Re-exported for imports not yet moved; to be removed.
 */
export type { MessageQuery, MessageSortField } from './message-listing';
