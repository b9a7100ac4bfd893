import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { AdminError, type Fields } from '../../shared/api';
import { Notice } from '../../shared/layout';
import { t } from './strings';

/** Calls one operation of the operator API as the signed-in operator. */
export type CallAdmin = <T>(path: string, options?: { query?: Fields; body?: unknown }) => Promise<T>;

/** The API's refusal as one sentence, with its field messages after it. */
export function explain(error: Error): string {
  if (!(error instanceof AdminError) || !error.fields) return error.message;
  const details = Object.values(error.fields)
    .flat()
    .filter((item): item is string => typeof item === 'string' && item !== error.message);
  return [error.message, ...details].join(' ');
}

export interface Action {
  busy: boolean;
  notice: { kind: 'success' | 'error'; text: string } | null;
  /** Runs one change; its success text (or the API's refusal) becomes the notice. True when it went through. */
  run(work: () => Promise<string | undefined>): Promise<boolean>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Action['notice']>(null);
  const run = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    setNotice(null);
    try {
      const text = await work();
      if (text) setNotice({ kind: 'success', text });
      return true;
    } catch (failure) {
      setNotice({ kind: 'error', text: t('refused', { message: explain(failure as Error) }) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, notice, run };
}

export function ActionNotice(props: { action: Action }) {
  const { notice } = props.action;
  return notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null;
}

/** A load that failed, said plainly. */
export function LoadError(props: { error?: Error }) {
  return props.error ? <Notice kind="error">{t('loadFailed', { message: explain(props.error) })}</Notice> : null;
}

/** A card with a heading (its id labels the section) and optional tools beside it. */
export function Card(props: { id: string; title: string; tools?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={props.id}>
      <div class="card-head">
        <h2 id={props.id}>{props.title}</h2>
        {props.tools}
      </div>
      {props.children}
    </section>
  );
}

/** A labelled text input; every field of the operator view has its label. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onInput(value: string): void;
  help?: string;
  required?: boolean;
  grow?: boolean;
  list?: string;
  placeholder?: string;
  maxLength?: number;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'url';
}) {
  const helpId = props.help ? `${props.id}-help` : undefined;
  return (
    <div class={props.grow ? 'field grow' : 'field'}>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        value={props.value}
        required={props.required}
        list={props.list}
        placeholder={props.placeholder}
        maxLength={props.maxLength}
        inputMode={props.inputMode}
        aria-describedby={helpId}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.help && (
        <p class="help" id={helpId}>
          {props.help}
        </p>
      )}
    </div>
  );
}

/** The browser's IANA zones, offered while typing a time zone. */
export function TimeZoneList(props: { id: string }) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <datalist id={props.id}>
      {zones.map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}
