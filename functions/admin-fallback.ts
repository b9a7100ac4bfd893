import { adminFallbackHandler } from '../shared/admin/handler';

/** Paths below /admin/ that name no operation (404), or an operation's path with the wrong method (405). */
export const handler = adminFallbackHandler();
