import { useState } from 'preact/hooks';
import { ApiError } from '../../shared/api';
import { Dialog } from '../../shared/dialog';
import { t } from '../../shared/i18n';
import { Notice } from '../../shared/layout';
import type { CallApi } from './account-app';
import type { Link } from './types';

/** The API's refusal as one sentence, with its field messages (code 1) after it. */
export function explain(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  const fields = error.data && typeof error.data === 'object' ? Object.values(error.data as Record<string, unknown>).flat() : [];
  const details = fields.filter((item): item is string => typeof item === 'string' && item !== error.message);
  return [error.message, ...details].join(' ');
}

/** Runs one change; `busy` while it runs, `error` when the API refused it. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(explain(failure as Error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export function CreateLinkForm(props: { call: CallApi; onCreated(link: { id: number; code: string; shortLink: string }): void }) {
  const [fullLink, setFullLink] = useState('');
  const [comment, setComment] = useState('');
  const [expirationDate, setExpirationDate] = useState('');
  const submit = useSubmit();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    submit.run(async () => {
      const link = await props.call<{ id: number; code: string; shortLink: string }>('Link/Create', {
        'data[fullLink]': fullLink.trim(),
        'data[comment]': comment.trim() || undefined,
        'data[expirationDate]': expirationDate || undefined,
      });
      setFullLink('');
      setComment('');
      setExpirationDate('');
      props.onCreated(link);
    });
  };
  return (
    <section class="card" aria-labelledby="new-link-heading">
      <h2 id="new-link-heading">{t('newLink')}</h2>
      <form class="form create-link" onSubmit={onSubmit}>
        <div class="field grow">
          <label for="new-full-link">{t('longUrl')}</label>
          <input
            id="new-full-link"
            type="text"
            inputMode="url"
            required
            placeholder="https://example.com/spring-sale"
            value={fullLink}
            onInput={(event) => setFullLink(event.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="new-comment">{t('comment')}</label>
          <input id="new-comment" type="text" maxLength={255} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="new-expiration">{t('expirationDate')}</label>
          <input id="new-expiration" type="date" value={expirationDate} onInput={(event) => setExpirationDate(event.currentTarget.value)} />
        </div>
        <button type="submit" class="button primary" disabled={submit.busy}>
          {submit.busy ? t('creating') : t('create')}
        </button>
      </form>
      {submit.error && <Notice kind="error">{submit.error}</Notice>}
    </section>
  );
}

/** Link/Update: status, comment and the last day of validity (empty: never expires). */
export function EditLinkDialog(props: { call: CallApi; link: Link; onClose(): void; onSaved(): void }) {
  const [status, setStatus] = useState(String(props.link.status));
  const [comment, setComment] = useState(props.link.comment ?? '');
  const [expirationDate, setExpirationDate] = useState(props.link.expirationDate ?? '');
  const submit = useSubmit();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    submit.run(async () => {
      await props.call('Link/Update', {
        id: props.link.id,
        'data[status]': status,
        'data[comment]': comment.trim(),
        'data[expirationDate]': expirationDate || undefined,
      });
      props.onSaved();
    });
  };
  return (
    <Dialog title={t('editLink', { code: props.link.code })} onClose={props.onClose}>
      <form class="form" onSubmit={onSubmit}>
        <div class="field">
          <label for="edit-status">{t('status')}</label>
          <select id="edit-status" value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
            <option value="1">{t('active')}</option>
            <option value="0">{t('inactive')}</option>
          </select>
        </div>
        <div class="field">
          <label for="edit-comment">{t('comment')}</label>
          <input id="edit-comment" type="text" maxLength={255} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="edit-expiration">{t('expirationDate')}</label>
          <input
            id="edit-expiration"
            type="date"
            value={expirationDate}
            aria-describedby="edit-expiration-help"
            onInput={(event) => setExpirationDate(event.currentTarget.value)}
          />
          <p class="help" id="edit-expiration-help">
            {t('expirationHelp')}
          </p>
        </div>
        {submit.error && <Notice kind="error">{submit.error}</Notice>}
        <div class="dialog-actions">
          <button type="button" class="button ghost" onClick={props.onClose}>
            {t('cancel')}
          </button>
          <button type="submit" class="button primary" disabled={submit.busy}>
            {submit.busy ? t('saving') : t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

export function DeleteLinkDialog(props: { call: CallApi; link: Link; onClose(): void; onDeleted(): void }) {
  const submit = useSubmit();
  const onDelete = () =>
    submit.run(async () => {
      await props.call('Link/Delete', { ids: [props.link.id] });
      props.onDeleted();
    });
  return (
    <Dialog title={t('confirmDeleteTitle')} onClose={props.onClose}>
      <p>{t('confirmDelete', { code: props.link.code })}</p>
      {submit.error && <Notice kind="error">{submit.error}</Notice>}
      <div class="dialog-actions">
        <button type="button" class="button ghost" onClick={props.onClose}>
          {t('cancel')}
        </button>
        <button type="button" class="button danger" disabled={submit.busy} onClick={onDelete}>
          {t('delete')}
        </button>
      </div>
    </Dialog>
  );
}
