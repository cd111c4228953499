/**
 * A product's form as operators fill it: the price typed in the currency's main unit (yuan) with
 * how customers will see it, only the fields of its kind (a storage block's size and period, a
 * top-up's points), and "on sale" off for a new product until it is put on sale on purpose.
 */
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { BooleanInput, FieldTitle, InputHelperText, NumberInput, maxValue, minValue, required, useInput, useLocaleState, useResourceContext, useTranslate, type Validator } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { MAX_MONEY, MAX_PERIOD_MONTHS } from '../../resources/shop';
import { confirm } from '../dialogs/store';
import { BytesInput, bytesBetween } from '../screens/BytesInput';
import type { FieldInputProps } from '../screens/screen';
import { formatMoney } from './formatMoney';
import { currencyName, currencySymbol, minorDigits, minorFromTyped, typedFromMinor, useShopCurrency } from './shopCurrency';

/** The price in minor units, or the text as typed when it is not a price (the validator says so). */
function priceRules(currency: string, locale: string): Validator[] {
  return [
    required(),
    (value: unknown) => {
      if (typeof value === 'string' && value.trim() !== '') return 'app.products.price_format';
      if (typeof value === 'number' && value < 1) return { message: 'app.products.price_too_small', args: { min: formatMoney(1, currency, locale) } };
      if (typeof value === 'number' && value > MAX_MONEY) return { message: 'validation.too_big', args: { max: formatMoney(MAX_MONEY, currency, locale) } };
      return undefined;
    },
  ];
}

export function PriceInput({ name }: FieldInputProps) {
  const translate = useTranslate();
  const resource = useResourceContext();
  const [locale] = useLocaleState();
  const currency = useShopCurrency();
  const digits = minorDigits(currency);
  const { field, fieldState, isRequired } = useInput({ source: name, validate: priceRules(currency, locale) });
  const [text, setText] = useState(() => (typeof field.value === 'number' ? typedFromMinor(field.value, digits) : ''));
  // The record arrives after the first draw on an edit page.
  useEffect(() => {
    if (typeof field.value === 'number' && minorFromTyped(text, digits) !== field.value) setText(typedFromMinor(field.value, digits));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value, digits]);
  const minor = typeof field.value === 'number' ? field.value : undefined;
  const hint =
    minor !== undefined && minor >= 1
      ? translate('app.products.price_preview', { zh: formatMoney(minor, currency, 'zh'), en: formatMoney(minor, currency, 'en') })
      : translate('app.products.price_hint', { unit: currencyName(currency, locale), smart_count: digits, example: formatMoney(99 * 10 ** digits, currency, locale) });
  return (
    <TextField
      className={`ra-input ra-input-${name} price-input`}
      name={name}
      fullWidth
      value={text}
      inputMode="decimal"
      onChange={(e) => {
        setText(e.target.value);
        const typed = e.target.value.trim();
        field.onChange(typed === '' ? null : (minorFromTyped(typed, digits) ?? typed));
      }}
      onBlur={() => {
        if (minor !== undefined) setText(typedFromMinor(minor, digits));
        field.onBlur();
      }}
      label={<FieldTitle label={translate('app.products.price_label', { currency: currencySymbol(currency, locale) })} source={name} resource={resource} isRequired={isRequired} />}
      error={Boolean(fieldState.error)}
      helperText={<InputHelperText error={fieldState.error?.message} helperText={<span className="price-preview">{hint}</span>} />}
      slotProps={{ input: { startAdornment: <InputAdornment position="start">{currencySymbol(currency, locale)}</InputAdornment> } }}
    />
  );
}

/** The kind the form is for: chosen on create, fixed afterwards. */
const useKind = () => useWatch({ name: 'kind' }) as string | undefined;

/** A field of one kind of product only: not shown (and emptied) for the other kind. */
function useOnlyFor(kind: string, name: string): boolean {
  const current = useKind();
  const { setValue, getValues } = useFormContext();
  const shown = current === kind;
  useEffect(() => {
    if (!shown && current && getValues(name) != null) setValue(name, null, { shouldDirty: true });
  }, [shown, current, name, getValues, setValue]);
  return shown;
}

export function StorageSizeInput({ name, field }: FieldInputProps) {
  if (!useOnlyFor('storage', name)) return null;
  return <BytesInput source={name} validate={[required(), bytesBetween(field.min, field.max)]} />;
}

export function PeriodInput({ name }: FieldInputProps) {
  if (!useOnlyFor('storage', name)) return null;
  return <NumberInput source={name} step={1} fullWidth validate={[minValue(1), maxValue(MAX_PERIOD_MONTHS)]} helperText="app.products.period_hint" parse={(v: string) => (v === '' || v === null ? null : Number(v))} />;
}

export function PointsGrantedInput({ name }: FieldInputProps) {
  if (!useOnlyFor('points', name)) return null;
  return <NumberInput source={name} step={1} fullWidth validate={[required(), minValue(1), maxValue(MAX_MONEY)]} />;
}

/**
 * On sale: off for a new product, so that a typing slip is not sold at once; switching it on
 * asks first, with the price as customers will see it (on a new product and on an edited one).
 */
export function OnSaleInput({ name, mode }: FieldInputProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const currency = useShopCurrency();
  const price = useWatch({ name: 'price' });
  const on = Boolean(useWatch({ name }));
  const { setValue } = useFormContext();
  return (
    <BooleanInput
      source={name}
      defaultValue={mode === 'create' ? 0 : undefined}
      format={(v) => v === 1 || v === true}
      parse={(v) => (v ? 1 : 0)}
      helperText={on ? 'app.products.on_sale_hint' : 'app.products.off_sale_hint'}
      onChange={async (event: { target: { checked: boolean } }) => {
        if (!event.target.checked) return;
        const shown = typeof price === 'number' ? formatMoney(price, currency, locale) : '—';
        if (!(await confirm(translate('app.products.put_on_sale_new_confirm', { price: shown }), translate('app.products.put_on_sale_title')))) {
          setValue(name, 0, { shouldDirty: true });
        }
      }}
    />
  );
}
