/**
 * A derived list's search, under a router whose history is not the browser's (MemoryRouter):
 * the delayed search still applies while the list is the page shown.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { operatorWithRole } from '../helpers/fixtures';
import { renderArea, signedInOperator } from './area-harness';

let t: TestApp;
let operator: { id: number; token: string; username: string };
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  operator = await signedInOperator(t);
  other = (await operatorWithRole(t, 'support')).username;
}, 60_000);

afterAll(() => t?.close());

describe('list search', { timeout: 60_000 }, () => {
  it('When an operator types a name into the search of the operators’ list, then only that operator is listed', async () => {
    renderArea(t, 'manage', '/manage/admin', operator);
    await waitFor(() => expect(screen.getByText(other)).toBeInTheDocument(), { timeout: 30_000 });
    expect(screen.getByText(operator.username)).toBeInTheDocument();
    fireEvent.change(document.querySelector<HTMLInputElement>('input[name="q"]')!, { target: { value: other } });
    await waitFor(() => expect(screen.queryByText(operator.username)).toBeNull(), { timeout: 30_000 });
    expect(screen.getByText(other)).toBeInTheDocument();
  });
});
