/**
 * Every operation of the operator API by its path under /admin/ and its method: reads are
 * GET, changes POST. The local server and the CDK routes both read this table; each entry
 * is served by functions/admin-<group>-<action>.ts.
 */
export const ADMIN_ROUTES = {
  'operators/whoami': 'GET',
  'accounts/list': 'GET',
  'accounts/get': 'GET',
  'accounts/create': 'POST',
  'accounts/update': 'POST',
  'accounts/block': 'POST',
  'accounts/unblock': 'POST',
  'keys/list': 'GET',
  'keys/issue': 'POST',
  'keys/revoke': 'POST',
  'signatures/list': 'GET',
  'signatures/add': 'POST',
  'signatures/approve': 'POST',
  'signatures/default': 'POST',
  'tariffs/get': 'GET',
  'tariffs/set': 'POST',
  'moderation/set': 'POST',
  'links/find': 'GET',
  'links/blocked': 'GET',
  'links/recent': 'GET',
  'links/block': 'POST',
  'links/approve': 'POST',
  'campaigns/held': 'GET',
  'campaigns/get': 'GET',
  'campaigns/approve': 'POST',
  'campaigns/decline': 'POST',
  'messages/ambiguous': 'GET',
  'messages/get': 'GET',
  'webhooks/list': 'GET',
  'webhooks/add': 'POST',
  'webhooks/remove': 'POST',
  'audit/list': 'GET',
} as const satisfies Record<string, 'GET' | 'POST'>;

export type AdminPath = keyof typeof ADMIN_ROUTES;
export type AdminMethod = (typeof ADMIN_ROUTES)[AdminPath];
/** `admin-accounts-create`: the module in functions/ that serves a path. */
export type AdminHandlerName = `admin-${string}`;

export const ADMIN_PREFIX = '/admin/';
export const ADMIN_FALLBACK = 'admin-fallback';

export function adminHandlerOf(path: AdminPath): AdminHandlerName {
  return `admin-${path.replace('/', '-')}`;
}

export function allAdminRoutes(): { path: AdminPath; method: AdminMethod; handler: AdminHandlerName }[] {
  return (Object.entries(ADMIN_ROUTES) as [AdminPath, AdminMethod][]).map(([path, method]) => ({ path, method, handler: adminHandlerOf(path) }));
}

export type AdminResolution = { kind: 'operation'; handler: AdminHandlerName } | { kind: 'wrongMethod'; allow: AdminMethod } | { kind: 'notFound' };

/** What a request to `path` (below /admin/, exact spelling) with `method` reaches. */
export function resolveAdmin(path: string, method: string): AdminResolution {
  const name = path.startsWith(ADMIN_PREFIX) ? path.slice(ADMIN_PREFIX.length) : undefined;
  if (name === undefined || !Object.hasOwn(ADMIN_ROUTES, name)) return { kind: 'notFound' };
  const allow = ADMIN_ROUTES[name as AdminPath];
  return method === allow ? { kind: 'operation', handler: adminHandlerOf(name as AdminPath) } : { kind: 'wrongMethod', allow };
}
