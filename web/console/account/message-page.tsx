import { t } from '../../shared/i18n';
import { Page } from '../../shared/layout';
import type { CallApi } from './account-app';

export function MessagePage(_props: { call: CallApi; id: number }) {
  return <Page title={t('loading')}>{null}</Page>;
}
