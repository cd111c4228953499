/**
 * The route-change progress bar (no spinner): it starts when the location changes and ends
 * once the new page has rendered, including the download of a lazily loaded area.
 */
import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';
import { ProgressBar } from './ProgressBar';

let pending = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Suspense fallback: keeps the bar running while a page's code is downloaded. */
export function PendingRoute() {
  useEffect(() => {
    pending++;
    emit();
    return () => {
      pending--;
      emit();
    };
  }, []);
  return null;
}

/** How long the bar stays after a change that rendered at once (so that it is seen to start and end). */
const MIN_VISIBLE_MS = 250;

export function RouteProgress() {
  const location = useLocation();
  const [changing, setChanging] = useState(false);
  const waiting = useSyncExternalStore(subscribe, () => pending > 0);
  const where = `${location.pathname}${location.search}`;

  useLayoutEffect(() => {
    setChanging(true);
    const timer = setTimeout(() => setChanging(false), MIN_VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [where]);

  return changing || waiting ? <ProgressBar className="route-progress" /> : null;
}
