/**
 * A group of an area's side menu, as react-admin's demo makes them (examples/demo's SubMenu): a
 * title that opens and closes its entries. Whether it is open is remembered in the area's store.
 * A group opens when it comes to hold the page shown (a link elsewhere led there), and is closed
 * until then.
 */
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useSidebarState, useStore, useTranslate } from 'react-admin';
import type { MenuGroup } from './features';

export function AreaMenuGroup({ group, holdsPageShown, children }: { group: MenuGroup; holdsPageShown: boolean; children: ReactNode }) {
  const translate = useTranslate();
  const [sidebarOpen] = useSidebarState();
  const [chosen, choose] = useStore<boolean | undefined>(`menu.${group.group}.open`, undefined);
  const open = chosen ?? holdsPageShown;
  useEffect(() => {
    if (holdsPageShown) choose(true);
  }, [holdsPageShown, choose]);
  const Icon = group.icon;
  const title = (
    <MenuItem onClick={() => choose(!open)} aria-expanded={open} className={`menu-group menu-group-${group.group}`}>
      <ListItemIcon sx={{ minWidth: 5 }}>{open ? <ExpandMoreIcon /> : <Icon />}</ListItemIcon>
      <Typography variant="inherit" color="textSecondary">
        {translate(group.label)}
      </Typography>
    </MenuItem>
  );
  return (
    <div>
      {sidebarOpen ? (
        title
      ) : (
        <Tooltip title={translate(group.label)} placement="right">
          {title}
        </Tooltip>
      )}
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List component="div" disablePadding sx={{ '& .MuiMenuItem-root': { pl: sidebarOpen ? 4 : 2, transition: 'padding-left 195ms' } }}>
          {children}
        </List>
      </Collapse>
    </div>
  );
}
