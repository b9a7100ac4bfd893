import { useState } from 'preact/hooks';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import { Pager } from '../account/parts';
import { ActionNotice, type CallAdmin, Card, LoadError, useAction } from './parts';
import { t } from './strings';
import { type HeldCampaign, showInstant } from './types';

/** Campaigns held in MODERATION, oldest first, each with its message: approve (it goes out) or decline (REJECTD). */
export function HeldCampaigns(props: { call: CallAdmin }) {
  const { call } = props;
  const [paging, setPaging] = useState({ page: 0, pageSize: 25 });
  const held = useLoad(() => call<{ items: HeldCampaign[]; totalItemCount: number }>('campaigns/held', { query: paging }), [call, paging]);
  const action = useAction();
  const decide = (campaign: HeldCampaign, decision: 'approve' | 'decline') =>
    action.run(async () => {
      await call(`campaigns/${decision}`, { body: { id: campaign.id } });
      held.reload();
      return t(decision === 'approve' ? 'campaignApproved' : 'campaignDeclined', { id: campaign.id });
    });
  return (
    <Card
      id="held-heading"
      title={t('heldCampaigns')}
      tools={
        <button type="button" class="button ghost" onClick={held.reload}>
          {t('refresh')}
        </button>
      }
    >
      <ActionNotice action={action} />
      <LoadError error={held.error} />
      {held.data?.items.length === 0 && <p class="empty">{t('noHeldCampaigns')}</p>}
      {held.data && held.data.items.length > 0 && (
        <div class="table-wrap">
          <table class="table" aria-busy={held.loading}>
            <thead>
              <tr>
                <th scope="col" class="num">
                  {t('campaign')}
                </th>
                <th scope="col">{t('account')}</th>
                <th scope="col">{t('from')}</th>
                <th scope="col">{t('to')}</th>
                <th scope="col">{t('messageText')}</th>
                <th scope="col">{t('created')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {held.data.items.map((campaign) => (
                <tr key={campaign.id}>
                  <td class="num">
                    {campaign.id}
                    {campaign.name && <div class="sub">{campaign.name}</div>}
                  </td>
                  <td>
                    <a href={`/console/operator/accounts/${campaign.accountId}`} onClick={onLinkClick}>
                      {campaign.accountId}
                    </a>
                  </td>
                  <td>{campaign.message?.from ?? '—'}</td>
                  <td class="code">{campaign.message?.to ?? '—'}</td>
                  <td class="held-text">{campaign.message?.text ?? t('messageGone')}</td>
                  <td class="time">
                    {showInstant(campaign.createdAt)}
                    {campaign.deferredTo && <div class="sub">{t('deferredTo', { at: showInstant(campaign.deferredTo) })}</div>}
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="button small"
                      disabled={action.busy}
                      aria-label={t('approveCampaignNamed', { id: campaign.id })}
                      onClick={() => decide(campaign, 'approve')}
                    >
                      {t('approve')}
                    </button>
                    <button
                      type="button"
                      class="button small danger"
                      disabled={action.busy}
                      aria-label={t('declineCampaignNamed', { id: campaign.id })}
                      onClick={() => decide(campaign, 'decline')}
                    >
                      {t('decline')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={paging.page}
        pageSize={paging.pageSize}
        total={held.data?.totalItemCount ?? 0}
        idPrefix="held"
        onPage={(page) => setPaging({ ...paging, page })}
        onPageSize={(pageSize) => setPaging({ page: 0, pageSize })}
      />
    </Card>
  );
}
