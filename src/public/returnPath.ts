/**
 * Where to go after signing in: the area page the visitor wanted, or the area's home. react-admin's
 * guard passes it in the state; from the sign-in page on it travels in `?next=` (through
 * registration and verification, and across a reload), taken only when it is a page of the area.
 */
import { useLocation } from 'react-router-dom';

export function useReturnPath(area: '/admin' | '/manage' | '/mail'): string {
  const location = useLocation();
  const state = location.state as { nextPathname?: string; nextSearch?: string } | null;
  const wanted = state?.nextPathname ? `${state.nextPathname}${state.nextSearch ?? ''}` : new URLSearchParams(location.search).get('next');
  return wanted && isPageOf(area, wanted) ? wanted : area;
}

/** Only a path of the area itself (no other site, no other area): /admin or /admin/… */
function isPageOf(area: string, wanted: string): boolean {
  const path = wanted.split(/[?#]/)[0];
  return (path === area || path.startsWith(`${area}/`)) && !wanted.includes('//') && !wanted.includes('\\');
}

/** A public page's link that keeps the page wanted after signing in (nothing added when it is the area's home). */
export function withNext(to: string, next: string, area: string): string {
  if (next === area) return to;
  return `${to}${to.includes('?') ? '&' : '?'}next=${encodeURIComponent(next)}`;
}
