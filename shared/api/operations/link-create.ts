import * as v from 'valibot';
import { AppError } from '../../domain/errors';
import { fullLinkProblem } from '../../domain/full-link-rules';
import type { LinkService } from '../../domain/link-service';
import { isGiven, isRecord, parseWith, text } from '../params';
import type { Operation } from '../types';
import { blankAsAbsent, comment, expirationDate, linkStatus } from './link-fields';

export interface LinkCreateDeps {
  links: Pick<LinkService, 'create' | 'shortLinkOf'>;
  /** The short links' own host: a full link there is refused (full-link-rules). */
  shortLinkHost: string;
}

// A required key that is missing is reported with the object's message; fullLink is the only one.
export const createSchema = (shortLinkHost: string) =>
  v.object(
    {
      fullLink: v.pipe(
        text('Full link is required'),
        v.trim(),
        v.rawCheck(({ dataset, addIssue }) => {
          const problem = dataset.typed ? fullLinkProblem(dataset.value, shortLinkHost) : undefined;
          if (problem) addIssue({ message: problem });
        }),
      ),
      status: v.optional(linkStatus),
      expirationDate: v.optional(expirationDate),
      comment: v.optional(comment),
    },
    'Full link is required',
  );

/** Link/Create: `data[fullLink]` required; `data[status]`, `data[expirationDate]`, `data[comment]` optional. */
export const linkCreate: Operation<LinkCreateDeps> = async ({ params, account, deps: { links, shortLinkHost } }) => {
  // `data=` is how PHP clients send a parameter they do not set: absent too.
  if (!isGiven(params.data)) throw new AppError('missingParameter', 'The data parameter is required');
  if (!isRecord(params.data)) throw new AppError('invalid', 'data must carry fields such as data[fullLink]', { data: ['Expected fields'] });
  const input = parseWith(createSchema(shortLinkHost), blankAsAbsent(params.data, ['status', 'expirationDate']));
  const link = await links.create(account, input);
  return { id: link.id, code: link.code, shortLink: links.shortLinkOf(link.code) };
};
