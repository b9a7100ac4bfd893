import { t } from '../../shared/i18n';
import { Page } from '../../shared/layout';
import type { CallApi } from './account-app';

export function MessagesPage(_props: { call: CallApi }) {
  return <Page title={t('loading')}>{null}</Page>;
}
