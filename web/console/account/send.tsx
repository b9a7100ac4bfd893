import { useState } from 'preact/hooks';
import { countSegments, MAX_SEGMENTS } from '../../../shared/domain/segments';
import { formatNumber, t } from '../../shared/i18n';
import { Notice, Page } from '../../shared/layout';
import { onLinkClick } from '../../shared/router';
import type { CallApi } from './account-app';
import { explain } from './link-forms';
import { knownMessages } from './message-page';

/** Units of one message, and of each part of a longer one (shared/domain/segments.ts counts them). */
const CAPACITY = { 'GSM-7': { single: 160, part: 153 }, 'UCS-2': { single: 70, part: 67 } } as const;

interface Sent {
  messageId: number;
  campaignId: number;
  status: 1 | 2;
}

/** Message/SendSmsMessage, with the segments and encoding shown as the text is typed, by the server's own rules. */
export function SendPage(props: { call: CallApi }) {
  const [recipient, setRecipient] = useState('');
  const [from, setFrom] = useState('');
  const [text, setText] = useState('');
  const [shortenLinks, setShortenLinks] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<Sent | null>(null);
  const { encoding, segments, units } = countSegments(text);
  const capacity = segments <= 1 ? CAPACITY[encoding].single : CAPACITY[encoding].part * segments;
  const tooLong = segments > MAX_SEGMENTS;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setSent(null);
    try {
      const to = recipient.trim();
      const answer = await props.call<Sent>('Message/SendSmsMessage', {
        recipient: to.replace(/^\+/, ''),
        text,
        from: from.trim() || undefined,
        'params[shortenLinks]': shortenLinks ? 1 : undefined,
      });
      knownMessages.set(answer.messageId, { to: to.replace(/^\+/, ''), text, from: from.trim(), campaignId: answer.campaignId });
      setSent(answer);
      setText('');
    } catch (failure) {
      setError(explain(failure as Error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={t('sendTitle')}>
      <p class="lead-page">{t('sendLead')}</p>
      <section class="card send-card" aria-label={t('sendTitle')}>
        <form class="form" onSubmit={submit}>
          <div class="form-row">
            <div class="field grow">
              <label for="send-recipient">{t('recipient')}</label>
              <input
                id="send-recipient"
                type="tel"
                autocomplete="off"
                required
                placeholder="+447400123450"
                value={recipient}
                aria-describedby="send-recipient-help"
                onInput={(event) => setRecipient(event.currentTarget.value)}
              />
              <p class="help" id="send-recipient-help">
                {t('recipientHelp')}
              </p>
            </div>
            <div class="field grow">
              <label for="send-from">{t('sender')}</label>
              <input
                id="send-from"
                type="text"
                value={from}
                aria-describedby="send-from-help"
                onInput={(event) => setFrom(event.currentTarget.value)}
              />
              <p class="help" id="send-from-help">
                {t('senderHelp')}
              </p>
            </div>
          </div>
          <div class="field">
            <label for="send-text">{t('text')}</label>
            <textarea id="send-text" required value={text} aria-describedby="send-meter" onInput={(event) => setText(event.currentTarget.value)} />
            <output id="send-meter" class="meter" for="send-text" aria-live="polite">
              <span>
                {t('encoding')}: <strong>{encoding}</strong>
              </span>
              <span>
                <strong>{t('segmentCount', { segments: formatNumber(segments), max: MAX_SEGMENTS })}</strong>
              </span>
              {!tooLong && <span>{t('unitsLeft', { left: formatNumber(Math.max(0, capacity - units)) })}</span>}
            </output>
            {tooLong && <Notice kind="error">{t('tooLong', { max: MAX_SEGMENTS })}</Notice>}
          </div>
          <div class="field check">
            <input
              id="send-shorten"
              type="checkbox"
              checked={shortenLinks}
              aria-describedby="send-shorten-help"
              onChange={(event) => setShortenLinks(event.currentTarget.checked)}
            />
            <div>
              <label for="send-shorten">{t('shortenLinks')}</label>
              <p class="help" id="send-shorten-help">
                {t('shortenLinksHelp')}
              </p>
            </div>
          </div>
          {error && <Notice kind="error">{error}</Notice>}
          {sent && (
            <Notice kind="success">
              {t('messageSent', { id: sent.messageId })} {sent.status === 1 && t('awaitingModeration')}{' '}
              <a href={`/console/messages/${sent.messageId}`} onClick={onLinkClick}>
                {t('openMessage')}
              </a>
            </Notice>
          )}
          <div>
            <button type="submit" class="button primary" disabled={busy || tooLong}>
              {busy ? t('sending') : t('send')}
            </button>
          </div>
        </form>
      </section>
    </Page>
  );
}
