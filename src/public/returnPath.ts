/** Where to go after signing in: the area page the visitor wanted (react-admin passes it in the state), or the area's home. */
import { useLocation } from 'react-router-dom';

export function useReturnPath(area: '/admin' | '/manage' | '/mail'): string {
  const state = useLocation().state as { nextPathname?: string; nextSearch?: string } | null;
  const wanted = state?.nextPathname;
  if (wanted && (wanted === area || wanted.startsWith(`${area}/`))) return `${wanted}${state?.nextSearch ?? ''}`;
  return area;
}
