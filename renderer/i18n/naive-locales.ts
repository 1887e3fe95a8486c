/**
 * naive-ui's own texts and date-fns locale for each language of the app, without the library's default placeholders
 * ("Please Input", "Please Select", "Select Date"): a field shows the hint its form gives it, or nothing.
 */
import {
  dateDeDE,
  dateEnGB,
  dateEsES,
  dateFrFR,
  dateItIT,
  dateNlNL,
  deDE,
  enGB,
  esES,
  frFR,
  itIT,
  nlNL,
  type NDateLocale,
  type NLocale,
} from 'naive-ui';
import type { AppLocale } from './index';

function withoutPlaceholders(locale: NLocale): NLocale {
  const datePicker = Object.fromEntries(
    Object.entries(locale.DatePicker).map(([key, value]) => [key, /placeholder/i.test(key) ? '' : value]),
  ) as NLocale['DatePicker'];
  return {
    ...locale,
    Input: { ...locale.Input, placeholder: '' },
    InputNumber: { ...locale.InputNumber, placeholder: '' },
    Select: { ...locale.Select, placeholder: '' },
    Cascader: { ...locale.Cascader, placeholder: '' },
    TimePicker: { ...locale.TimePicker, placeholder: '' },
    DatePicker: datePicker,
  };
}

/** naive-ui's locale and date locale of each language of the app. */
export const NAIVE_LOCALES: Record<AppLocale, { locale: NLocale; date: NDateLocale }> = {
  en: { locale: withoutPlaceholders(enGB), date: dateEnGB },
  nl: { locale: withoutPlaceholders(nlNL), date: dateNlNL },
  de: { locale: withoutPlaceholders(deDE), date: dateDeDE },
  fr: { locale: withoutPlaceholders(frFR), date: dateFrFR },
  it: { locale: withoutPlaceholders(itIT), date: dateItIT },
  es: { locale: withoutPlaceholders(esES), date: dateEsES },
};
