/**
 * The dialog helpers of the specification, as promises: alert, confirm, prompt and a generic
 * dialog. Only one dialog is open at a time; later ones wait their turn. <DialogHost> renders
 * whichever is current; this module knows nothing of React's tree and can be called anywhere.
 */
import type { ReactNode } from 'react';

export type DialogKind = 'alert' | 'confirm' | 'prompt' | 'custom';

export interface DialogRequest {
  id: number;
  kind: DialogKind;
  title?: string;
  message?: ReactNode;
  defaultValue?: string;
  render?: (done: (value: unknown) => void) => ReactNode;
  resolve: (value: unknown) => void;
}

let nextId = 1;
let queue: DialogRequest[] = [];
let lastAlertAt = 0;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

function open<T>(request: Omit<DialogRequest, 'id' | 'resolve'>): Promise<T> {
  return new Promise<T>((resolve) => {
    queue = [...queue, { ...request, id: nextId++, resolve: resolve as (value: unknown) => void }];
    emit();
  });
}

/** A title and one OK button; the title gives the dialog the class `alert-<lowercase title>`. */
export function alert(title: string, message?: ReactNode): Promise<void> {
  lastAlertAt = Date.now();
  return open<void>({ kind: 'alert', title, message });
}

/** OK and Cancel: true when confirmed. */
export function confirm(message: ReactNode, title?: string): Promise<boolean> {
  return open<boolean>({ kind: 'confirm', title, message });
}

/** A text input with OK and Cancel; Cancel gives the empty string. */
export function prompt(message: ReactNode, options: { title?: string; defaultValue?: string } = {}): Promise<string> {
  return open<string>({ kind: 'prompt', message, ...options });
}

/** Hosts any content; resolves with the value the content passes to `done` (undefined when dismissed). */
export function openDialog<T>(render: (done: (value: T) => void) => ReactNode, options: { title?: string } = {}): Promise<T | undefined> {
  return open<T | undefined>({ kind: 'custom', title: options.title, render: render as DialogRequest['render'] });
}

/** The dialog on screen, if any. */
export function currentDialog(): DialogRequest | undefined {
  return queue[0];
}

/** Closes the current dialog with its answer and shows the next one. */
export function settle(id: number, value: unknown) {
  const request = queue.find((r) => r.id === id);
  if (!request) return;
  queue = queue.filter((r) => r.id !== id);
  request.resolve(value);
  emit();
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether an alert was opened within the last `ms` (react-admin need not report the same error again). */
export function alertedWithin(ms: number): boolean {
  return Date.now() - lastAlertAt <= ms || queue.some((r) => r.kind === 'alert');
}

/** The CSS class of an alert with this title. */
export const alertClass = (title: string) => `alert-${title.toLowerCase()}`;
