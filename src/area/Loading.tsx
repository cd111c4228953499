/** What an area shows while it checks the session: the progress bar only. */
import { ProgressBar } from '../progress/ProgressBar';

export function AreaLoading() {
  return <ProgressBar className="area-loading" />;
}
