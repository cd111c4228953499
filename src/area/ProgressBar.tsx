/** A thin bar at the top of the window while something loads (the app shows no spinners). */
import LinearProgress from '@mui/material/LinearProgress';

export function ProgressBar({ className }: { className?: string }) {
  return (
    <LinearProgress
      className={className}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: (theme) => theme.zIndex.tooltip + 1, height: 3 }}
    />
  );
}
