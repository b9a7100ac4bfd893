import { useState } from 'preact/hooks';
import { Page } from '../../shared/layout';
import { useLoad } from '../../shared/use-load';
import { type CallAdmin, Card, LoadError } from './parts';
import { t } from './strings';
import { type AuditEntry, showInstant } from './types';

const PAGE = 50;

/** Every change made through the operator API, newest first: who, what, on what, with which outcome. */
export function AuditPage(props: { call: CallAdmin }) {
  // The pages seen so far: each starts before the last entry of the one before it.
  const [before, setBefore] = useState<string[]>([]);
  const cursor = before[before.length - 1];
  const entries = useLoad(
    () => props.call<AuditEntry[]>('audit/list', { query: { limit: PAGE, ...(cursor && { before: cursor }) } }),
    [props.call, cursor],
  );
  const items = entries.data ?? [];
  const last = items[items.length - 1];
  return (
    <Page
      title={t('auditTitle')}
      actions={
        <button type="button" class="button ghost" onClick={entries.reload}>
          {t('refresh')}
        </button>
      }
    >
      <Card id="audit-heading" title={t('auditEntries')}>
        <LoadError error={entries.error} />
        {entries.data?.length === 0 && <p class="empty">{t('noAudit')}</p>}
        {items.length > 0 && (
          <div class="table-wrap">
            <table class="table" aria-busy={entries.loading}>
              <thead>
                <tr>
                  <th scope="col">{t('when')}</th>
                  <th scope="col">{t('who')}</th>
                  <th scope="col">{t('what')}</th>
                  <th scope="col">{t('target')}</th>
                  <th scope="col">{t('input')}</th>
                  <th scope="col">{t('outcome')}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((entry) => (
                  <tr key={entry.id}>
                    <td class="time">{showInstant(entry.at)}</td>
                    <td>
                      {entry.operator.name}
                      <div class="sub">{entry.operator.tokenId}</div>
                    </td>
                    <td class="code">{entry.action}</td>
                    <td class="audit-input">{describe(entry.target)}</td>
                    <td class="audit-input">{describe(entry.input)}</td>
                    <td>
                      {entry.outcome === 'ok' ? <span class="badge good">{t('ok')}</span> : <span class="badge bad">{entry.outcome}</span>}
                      {entry.message && <div class="sub">{entry.message}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav class="pager" aria-label={t('auditPages')}>
          <div class="pager-buttons">
            <button type="button" class="button small" disabled={before.length === 0} onClick={() => setBefore(before.slice(0, -1))}>
              {t('newer')}
            </button>
            <button
              type="button"
              class="button small"
              disabled={!last || items.length < PAGE}
              onClick={() => last && setBefore([...before, last.id])}
            >
              {t('older')}
            </button>
          </div>
        </nav>
      </Card>
    </Page>
  );
}

/** `{accountId: 3, name: "Acme"}` as `accountId 3, name Acme`. */
function describe(fields: Record<string, unknown>): string {
  const parts = Object.entries(fields).map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}
