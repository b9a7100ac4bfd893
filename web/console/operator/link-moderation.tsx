import { useState } from 'preact/hooks';
import { Dialog } from '../../shared/dialog';
import { formatNumber } from '../../shared/i18n';
import { onLinkClick } from '../../shared/router';
import { ActionNotice, type CallAdmin, TextField, useAction } from './parts';
import { t } from './strings';
import { type Link, showInstant } from './types';

/** Links with their moderation state; each can be blocked (its redirect answers 451) or approved, with a comment. */
export function LinkTable(props: { call: CallAdmin; links: Link[]; onChanged(link: Link): void; showAccount?: boolean }) {
  const [deciding, setDeciding] = useState<{ link: Link; decision: 'block' | 'approve' } | null>(null);
  return (
    <>
      <div class="table-wrap">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">{t('shortLink')}</th>
              {props.showAccount && <th scope="col">{t('account')}</th>}
              <th scope="col">{t('destination')}</th>
              <th scope="col" class="num">
                {t('clicks')}
              </th>
              <th scope="col">{t('moderation')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.links.map((link) => (
              <tr key={link.id}>
                <td>
                  <span class="code">{link.shortLink}</span>
                  {link.comment && <div class="sub">{link.comment}</div>}
                </td>
                {props.showAccount && (
                  <td>
                    <a href={`/console/operator/accounts/${link.accountId}`} onClick={onLinkClick}>
                      {link.accountId}
                    </a>
                  </td>
                )}
                <td class="url" title={link.fullLink}>
                  {link.fullLink}
                </td>
                <td class="num">{formatNumber(link.clickCnt)}</td>
                <td>
                  {link.moderatorStatus === 0 ? <span class="badge bad">{t('blocked')}</span> : <span class="badge good">{t('allowed')}</span>}
                  {link.moderatorComment && <div class="sub">{link.moderatorComment}</div>}
                </td>
                <td class="time">{showInstant(link.createdAt)}</td>
                <td class="row-actions">
                  {link.moderatorStatus === 1 ? (
                    <button
                      type="button"
                      class="button small danger"
                      aria-label={t('blockLinkNamed', { code: link.code })}
                      onClick={() => setDeciding({ link, decision: 'block' })}
                    >
                      {t('block')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      class="button small"
                      aria-label={t('approveLinkNamed', { code: link.code })}
                      onClick={() => setDeciding({ link, decision: 'approve' })}
                    >
                      {t('approve')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {deciding && (
        <DecideDialog
          call={props.call}
          {...deciding}
          onClose={() => setDeciding(null)}
          onDone={(link) => {
            setDeciding(null);
            props.onChanged(link);
          }}
        />
      )}
    </>
  );
}

function DecideDialog(props: { call: CallAdmin; link: Link; decision: 'block' | 'approve'; onClose(): void; onDone(link: Link): void }) {
  const { link, decision } = props;
  const [comment, setComment] = useState(link.moderatorComment ?? '');
  const action = useAction();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const changed = await props.call<Link>(decision === 'block' ? 'links/block' : 'links/approve', {
        body: { id: link.id, comment: comment.trim() || null },
      });
      props.onDone(changed);
      return undefined;
    });
  };
  return (
    <Dialog title={t(decision === 'block' ? 'blockLinkTitle' : 'approveLinkTitle', { shortLink: link.shortLink })} onClose={props.onClose}>
      <form class="form" onSubmit={onSubmit}>
        <p class="hint">{t(decision === 'block' ? 'blockLinkLead' : 'approveLinkLead')}</p>
        <TextField id="moderator-comment" label={t('moderatorComment')} value={comment} onInput={setComment} maxLength={255} />
        <ActionNotice action={action} />
        <div class="dialog-actions">
          <button type="button" class="button" onClick={props.onClose}>
            {t('cancel')}
          </button>
          <button type="submit" class={decision === 'block' ? 'button danger' : 'button primary'} disabled={action.busy}>
            {t(decision === 'block' ? 'blockLink' : 'approveLink')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
