import { defineStrings } from '../../shared/i18n';
import { EN } from './strings-en';
import { RU } from './strings-ru';

/** The operator view's translator: its own pair of dictionaries beside the shell's. */
export const t = defineStrings(EN, RU);
