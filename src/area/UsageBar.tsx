/** How much of a size is used: a bar and "used / total (percent)"; amber from 80 %, red when full. */
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { formatBytes } from '../screens/bytes';

export function UsageBar({ used, total, width = 180 }: { used: number; total: number; width?: number | string }) {
  const percent = total > 0 ? Math.min(100, (used / total) * 100) : used > 0 ? 100 : 0;
  const color = percent >= 100 ? 'error' : percent >= 80 ? 'warning' : 'primary';
  return (
    <Box sx={{ width, minWidth: 120 }} className="usage-bar">
      <LinearProgress variant="determinate" value={percent} color={color} sx={{ height: 8, borderRadius: 4 }} />
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {formatBytes(used)} / {formatBytes(total)} ({percent < 1 && used > 0 ? '<1' : Math.round(percent)}%)
      </Typography>
    </Box>
  );
}
