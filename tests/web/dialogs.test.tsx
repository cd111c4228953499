import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DialogHost } from '../../src/dialogs/DialogHost';
import { alert, alertedWithin, confirm, openDialog, prompt } from '../../src/dialogs/store';

const texts: Record<string, string> = { 'app.dialog.ok': 'OK', 'app.dialog.cancel': 'Cancel', 'app.dialog.title.warning': 'WARNING' };
const translate = (key: string, options?: Record<string, unknown>) => texts[key] ?? String(options?._ ?? key);

const host = () => render(<DialogHost translate={translate} />);
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('dialogs', () => {
  it('an alert has a title, one OK button and the class alert-<lowercase title>', async () => {
    host();
    let done = false;
    let pending!: Promise<void>;
    act(() => {
      pending = alert('WARNING', 'Wrong code').then(() => {
        done = true;
      });
    });
    expect(screen.getByRole('dialog')).toHaveTextContent('Wrong code');
    expect(document.querySelector('.alert-warning')).not.toBeNull();
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(alertedWithin(1000)).toBe(true);
    await act(async () => {
      click('OK');
      await pending;
    });
    expect(done).toBe(true);
  });

  it('confirm resolves true on OK and false on Cancel', async () => {
    host();
    let first!: Promise<boolean>;
    act(() => {
      first = confirm('Sure?');
    });
    await act(async () => click('OK'));
    await expect(first).resolves.toBe(true);
    let second!: Promise<boolean>;
    act(() => {
      second = confirm('Sure?');
    });
    await act(async () => click('Cancel'));
    await expect(second).resolves.toBe(false);
  });

  it('prompt resolves with the text, and Cancel gives the empty string', async () => {
    host();
    let answer!: Promise<string>;
    act(() => {
      answer = prompt('Your name?', { defaultValue: 'Ann' });
    });
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Bob' } });
    await act(async () => click('OK'));
    await expect(answer).resolves.toBe('Bob');
    let cancelled!: Promise<string>;
    act(() => {
      cancelled = prompt('Your name?', { defaultValue: 'Ann' });
    });
    await act(async () => click('Cancel'));
    await expect(cancelled).resolves.toBe('');
  });

  it('only one dialog is open at a time; the next waits for the first to close', async () => {
    host();
    let first!: Promise<boolean>;
    let second!: Promise<void>;
    act(() => {
      first = confirm('First question');
      second = alert('INFO', 'Second message');
    });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog')).toHaveTextContent('First question');
    await act(async () => click('OK'));
    await expect(first).resolves.toBe(true);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog')).toHaveTextContent('Second message');
    expect(document.querySelector('.alert-info')).not.toBeNull();
    await act(async () => click('OK'));
    await second;
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a generic dialog hosts any content and resolves with what it emits', async () => {
    host();
    let picked!: Promise<string | undefined>;
    act(() => {
      picked = openDialog<string>((done) => (
        <button type="button" onClick={() => done('blue')}>
          Blue
        </button>
      ));
    });
    await act(async () => click('Blue'));
    await expect(picked).resolves.toBe('blue');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
