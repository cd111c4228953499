/**
 * The public pages' components: semantic HTML styled by public.css in the look of the areas'
 * MUI theme. The public pages come without MUI and emotion, so that their first download is
 * React, the router and our own code only; the areas bring MUI with react-admin.
 */
import type { ButtonHTMLAttributes, KeyboardEvent, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { CloseIcon, InfoIcon, SuccessIcon, WarningIcon } from './icons';
import './public.css';

const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

interface ButtonLook {
  variant?: 'text' | 'contained' | 'outlined';
  size?: 'medium' | 'large';
  /** The colour of the text around it (the app bar's white) instead of the primary colour. */
  inherit?: boolean;
  fullWidth?: boolean;
  className?: string;
}

const buttonClass = ({ variant = 'text', size = 'medium', inherit, fullWidth, className }: ButtonLook) =>
  classes('ui-button', `ui-button--${variant}`, `ui-button--${size}`, inherit && 'ui-button--inherit', fullWidth && 'ui-button--full', className);

export function Button({ variant, size, inherit, fullWidth, className, type = 'button', ...button }: ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className={buttonClass({ variant, size, inherit, fullWidth, className })} {...button} />;
}

/** A link to another page of the app that looks like a button. */
export function LinkButton({ to, children, ...look }: ButtonLook & { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={buttonClass(look)}>
      {children}
    </Link>
  );
}

/** A link in running text: the primary colour, underlined. */
export function TextLink(props: Omit<LinkProps, 'className'>) {
  return <Link {...props} className="ui-link" />;
}

export function Card({ outlined, className, children }: { outlined?: boolean; className?: string; children: ReactNode }) {
  return (
    <div className={classes('ui-card', outlined && 'ui-card--outlined', className)}>
      <div className="ui-card-content">{children}</div>
    </div>
  );
}

const alertIcons = { success: SuccessIcon, info: InfoIcon, warning: WarningIcon };

/** A message in a coloured box, announced to screen readers as it appears. */
export function Alert({ severity, onClose, className, children }: { severity: keyof typeof alertIcons; onClose?: () => void; className?: string; children: ReactNode }) {
  const Icon = alertIcons[severity];
  return (
    <div role="alert" className={classes('ui-alert', `ui-alert--${severity}`, className)}>
      <div className="ui-alert-icon">
        <Icon />
      </div>
      <div className="ui-alert-message">{children}</div>
      {onClose && (
        <div className="ui-alert-action">
          <button type="button" className="ui-icon-button" aria-label="Close" title="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
      )}
    </div>
  );
}

/** Tabs that switch what a form asks for: a click or Enter chooses one; the arrow keys, Home and End move between them. */
export function Tabs<V extends string>({ value, onChange, tabs }: { value: V; onChange: (value: V) => void; tabs: { value: V; label: string; className?: string }[] }) {
  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role=tab]'));
    const at = list.indexOf(document.activeElement as HTMLElement);
    const to = ({ ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: list.length - 1 } as Record<string, number>)[event.key];
    if (to === undefined) return;
    event.preventDefault();
    list[(to + list.length) % list.length].focus();
  };
  return (
    <div role="tablist" className="ui-tabs" onKeyDown={moveFocus}>
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          aria-selected={tab.value === value}
          tabIndex={tab.value === value ? 0 : -1}
          className={classes('ui-tab', tab.className)}
          onClick={() => onChange(tab.value)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
