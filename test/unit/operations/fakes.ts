import type { Context } from 'aws-lambda';
import type { Operation } from '../../../shared/api/types';
import { anAccount } from '../../support/fixtures';

export { aLink, aMessage, anAccount } from '../../support/fixtures';

/** Runs `operation` as the handler does, for `account` (the default one unless given). */
export function run<Deps>(operation: Operation<Deps>, deps: Deps, params: Record<string, unknown>, account = anAccount()) {
  return operation({ params, account, deps, lambda: {} as Context });
}

/** A link-shortening base for `shortLinkOf`. */
export const shortLinkOf = (code: string) => `https://s.test/${code}`;
