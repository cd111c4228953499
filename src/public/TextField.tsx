/**
 * An outlined text field with a floating label, as the areas' MUI TextField looks: the label
 * sits in the box until the field has focus or a value (or the browser filled it in), then
 * moves into a gap in the outline (public.css).
 */
import { useEffect, useId, useLayoutEffect, useRef, type ChangeEvent, type HTMLAttributes, type HTMLInputTypeAttribute } from 'react';

interface TextFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** Below the field; a single space keeps its line without text, so that an error does not move the form. */
  helperText?: string;
  error?: boolean;
  required?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  margin?: 'dense';
  /** A textarea that grows with its text from minRows to maxRows lines. */
  multiline?: boolean;
  minRows?: number;
  maxRows?: number;
}

export function TextField({ label, helperText, error, required, disabled, fullWidth, margin, multiline, minRows = 1, maxRows = minRows, ...input }: TextFieldProps) {
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const className = [
    'ui-field',
    fullWidth && 'ui-field--full',
    margin === 'dense' && 'ui-field--dense',
    input.value !== '' && 'is-filled',
    error && 'is-error',
    disabled && 'is-disabled',
  ]
    .filter(Boolean)
    .join(' ');
  const common = { id, required, disabled, 'aria-invalid': Boolean(error), 'aria-describedby': helperTextId, className: 'ui-field-input', ...input };
  return (
    <div className={className}>
      <label htmlFor={id} id={`${id}-label`} className="ui-field-label">
        {label}
        {required && <span aria-hidden="true">{'\u2009*'}</span>}
      </label>
      <div className={multiline ? 'ui-field-box ui-field-box--multiline' : 'ui-field-box'}>
        {multiline ? <AutoHeightTextarea {...common} minRows={minRows} maxRows={maxRows} /> : <input {...common} />}
        <fieldset aria-hidden="true" className="ui-field-outline">
          <legend>
            <span>
              {label}
              {required && '\u2009*'}
            </span>
          </legend>
        </fieldset>
      </div>
      {helperText && (
        <p id={helperTextId} className="ui-field-helper">
          {helperText === ' ' ? <span aria-hidden="true">{'\u200b'}</span> : helperText}
        </p>
      )}
    </div>
  );
}

type TextareaProps = Omit<TextFieldProps, 'label' | 'helperText' | 'error' | 'fullWidth' | 'margin' | 'multiline' | 'type' | 'inputMode'> & {
  id: string;
  className: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
};

function AutoHeightTextarea({ minRows = 1, maxRows = minRows, ...textarea }: TextareaProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const fit = () => {
    const element = ref.current;
    if (!element) return;
    const line = parseFloat(getComputedStyle(element).lineHeight);
    element.style.height = '0';
    const content = element.scrollHeight;
    element.style.height = `${Math.min(Math.max(content, minRows * line), maxRows * line)}px`;
    element.style.overflow = content > maxRows * line ? 'auto' : 'hidden';
  };
  useLayoutEffect(fit, [textarea.value]);
  // A narrower window wraps the text onto more lines.
  useEffect(() => {
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, []);
  return <textarea ref={ref} rows={minRows} {...textarea} />;
}
