import { useState } from 'preact/hooks';
import { formatNumber, t } from '../../shared/i18n';
import { Notice, Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import { useLoad } from '../../shared/use-load';
import type { CallApi } from './account-app';
import { STATS_TYPES, StatsChart, type StatsItem, type StatsType } from './chart';
import { explain } from './link-forms';
import { StatusBadge } from './parts';
import { QrCode } from './qr';
import { type Link, showTime } from './types';

/** One link: its counts, its clicks and redirects over time (Link/GetStats), its details and its QR code. */
export function LinkPage(props: { call: CallApi; id: number }) {
  const [type, setType] = useState<StatsType>('daily');
  const [version, setVersion] = useState(0);
  const link = useLoad(() => props.call<Link>('Link/Get', { id: props.id }), [props.id, version]);
  // The last maximum interval of the type, ending now (interface spec §4.5, rule 1).
  const stats = useLoad(
    () => props.call<{ items: StatsItem[]; totals: string }>('Link/GetStats', { ids: [props.id], type }),
    [props.id, type, version],
  );
  const refresh = () => setVersion(version + 1);
  const periodClicks = stats.data?.items.reduce((sum, item) => sum + item.clicks0, 0);
  const periodRedirects = stats.data?.items.reduce((sum, item) => sum + item.redirects0, 0);
  const code = link.data?.code ?? String(props.id);
  return (
    <Page
      title={t('linkTitle', { code })}
      actions={
        <>
          <a class="button ghost" href="/console/links" onClick={onLinkClick}>
            {t('back')}
          </a>
          <button type="button" class="button" onClick={refresh} aria-busy={link.loading || stats.loading}>
            {t('refresh')}
          </button>
        </>
      }
    >
      {link.error && <Notice kind="error">{explain(link.error)}</Notice>}
      <div class="stats">
        <Stat label={t('clicksAllTime')} value={link.data?.clickCnt} />
        <Stat label={t('clicksInPeriod')} value={periodClicks} />
        <Stat label={t('redirectsInPeriod')} value={periodRedirects} />
      </div>
      <div class="grid-2">
        <section class="card" aria-labelledby="chart-heading">
          <div class="card-head">
            <h2 id="chart-heading">{t('chartTitle')}</h2>
            <fieldset class="segmented">
              <legend class="visually-hidden">{t('period')}</legend>
              {STATS_TYPES.map((name) => (
                <button key={name} type="button" aria-pressed={type === name} onClick={() => setType(name)}>
                  {t(name)}
                </button>
              ))}
            </fieldset>
          </div>
          {stats.error && <Notice kind="error">{explain(stats.error)}</Notice>}
          {stats.data ? <StatsChart type={type} items={stats.data.items} /> : <p class="empty">{t('loading')}</p>}
          <p class="help">{t('timeInZone')}</p>
        </section>
        <div class="stack">
          {link.data && <LinkDetails link={link.data} />}
          {link.data && (
            <section class="card" aria-labelledby="qr-heading">
              <h2 id="qr-heading">{t('qrCode')}</h2>
              <QrCode url={link.data.shortLink} code={link.data.code} />
            </section>
          )}
        </div>
      </div>
    </Page>
  );
}

function Stat(props: { label: string; value: number | undefined }) {
  return (
    <div class="stat">
      <div class="stat-label">{props.label}</div>
      <div class="stat-value">{props.value === undefined ? '—' : formatNumber(props.value)}</div>
    </div>
  );
}

function LinkDetails(props: { link: Link }) {
  const { link } = props;
  const [copied, setCopied] = useState(false);
  const copy = () => navigator.clipboard?.writeText(link.shortLink).then(() => setCopied(true));
  return (
    <section class="card" aria-label={t('shortLink')}>
      <dl class="details">
        <dt>{t('shortLink')}</dt>
        <dd class="short-link">
          <a href={link.shortLink} target="_blank" rel="noreferrer">
            {link.shortLink}
          </a>
          <button type="button" class="button small" onClick={copy}>
            {copied ? t('copied') : t('copy')}
          </button>
        </dd>
        <dt>{t('fullLink')}</dt>
        <dd>{link.fullLink}</dd>
        <dt>{t('status')}</dt>
        <dd>
          <StatusBadge link={link} />
        </dd>
        <dt>{t('created')}</dt>
        <dd>{showTime(link.createTs)}</dd>
        <dt>{t('expires')}</dt>
        <dd>{link.expirationDate ?? t('never')}</dd>
        {link.comment && (
          <>
            <dt>{t('comment')}</dt>
            <dd>{link.comment}</dd>
          </>
        )}
        {link.moderatorComment && (
          <>
            <dt>{t('moderatorComment')}</dt>
            <dd>{link.moderatorComment}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
