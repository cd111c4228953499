/**
 * A thin bar at the top of the window while something loads (the app shows no spinners):
 * MUI's indeterminate LinearProgress in our primary colour, drawn by CSS alone, because the
 * public pages show it too and they come without MUI.
 */
import './progress.css';

export function ProgressBar({ className }: { className: string }) {
  return <span role="progressbar" className={`progress-bar ${className}`} />;
}
