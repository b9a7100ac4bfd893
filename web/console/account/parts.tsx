import { formatNumber, t } from '../../shared/i18n';
import type { Link } from './types';

export function StatusBadge(props: { link: Pick<Link, 'status' | 'moderatorStatus'> }) {
  if (props.link.moderatorStatus === 0) return <span class="badge bad">{t('blocked')}</span>;
  return props.link.status === 1 ? <span class="badge good">{t('active')}</span> : <span class="badge muted">{t('inactive')}</span>;
}

const STATUS_TONES: Record<string, string> = {
  DELIVRD: 'good',
  PDLIVRD: 'warn',
  UNDELIV: 'bad',
  REJECTD: 'bad',
  EXPIRED: 'bad',
  DELETED: 'muted',
};

/** A message status as the API names it (DELIVRD, UNDELIV…), coloured by what it means. */
export function MessageStatus(props: { status: string }) {
  return <span class={`badge ${STATUS_TONES[props.status] ?? 'info'}`}>{props.status}</span>;
}

/** Previous/next over a list the API pages (25, 50 or 100 a page, pages from 0). */
export function Pager(props: {
  page: number;
  pageSize: number;
  total: number;
  idPrefix: string;
  onPage(page: number): void;
  onPageSize(size: number): void;
}) {
  const pages = Math.max(1, Math.ceil(props.total / props.pageSize));
  const id = `${props.idPrefix}-page-size`;
  return (
    <nav class="pager" aria-label={t('pageOf', { page: props.page + 1, pages })}>
      <div class="field inline">
        <label for={id}>{t('pageSize')}</label>
        <select id={id} value={props.pageSize} onChange={(event) => props.onPageSize(Number(event.currentTarget.value))}>
          {[25, 50, 100].map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <span class="pager-position">{t('pageOf', { page: formatNumber(props.page + 1), pages: formatNumber(pages) })}</span>
      <div class="pager-buttons">
        <button type="button" class="button small" disabled={props.page === 0} onClick={() => props.onPage(props.page - 1)}>
          {t('previous')}
        </button>
        <button type="button" class="button small" disabled={props.page + 1 >= pages} onClick={() => props.onPage(props.page + 1)}>
          {t('next')}
        </button>
      </div>
    </nav>
  );
}
