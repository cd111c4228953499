/**
 * The side menu of an area: its dashboard, its profile page (when it has one), then its features in their order
 * (the screens that have a list, and its pages), in the menu groups the area's list gives.
 */
import PersonIcon from '@mui/icons-material/Person';
import { Menu, useBasename, useLocation, useSidebarState } from 'react-admin';
import { AreaMenuGroup } from './AreaMenuGroup';
import { isGroup, isPage, type MenuEntry, type MenuGroup } from './features';

const pathOf = (basename: string, entry: MenuEntry) => `${basename}/${isPage(entry) ? entry.path : entry.name}`;

function EntryItem({ entry }: { entry: MenuEntry }) {
  const basename = useBasename();
  if (!isPage(entry)) return entry.config.list ? <Menu.ResourceItem name={entry.name} /> : null;
  const { label, icon: Icon } = entry;
  return <Menu.Item to={pathOf(basename, entry)} primaryText={label} leftIcon={<Icon />} />;
}

/** With the menu open, a label too long for its width takes a second line instead of being cut at the edge (English and Chinese alike). */
const wrappedLabels = { '& .MuiMenuItem-root, & .MuiMenuItem-root .MuiTypography-noWrap': { whiteSpace: 'normal', lineHeight: 1.3 } } as const;

export function areaMenu(entries: readonly (MenuEntry | MenuGroup)[], options: { profile?: boolean; dashboardLabel?: string } = {}) {
  return function AreaMenu() {
    const basename = useBasename();
    const { pathname } = useLocation();
    const [sidebarOpen] = useSidebarState();
    const shows = (entry: MenuEntry) => {
      const path = pathOf(basename, entry);
      return pathname === path || pathname.startsWith(`${path}/`);
    };
    return (
      <Menu sx={sidebarOpen ? wrappedLabels : undefined}>
        <Menu.DashboardItem primaryText={options.dashboardLabel} />
        {options.profile !== false && <Menu.Item to={`${basename}/profile`} primaryText="app.nav.profile" leftIcon={<PersonIcon />} />}
        {entries.map((entry) =>
          isGroup(entry) ? (
            <AreaMenuGroup key={entry.group} group={entry} holdsPageShown={entry.entries.some(shows)}>
              {entry.entries.map((inGroup) => (
                <EntryItem key={pathOf(basename, inGroup)} entry={inGroup} />
              ))}
            </AreaMenuGroup>
          ) : (
            <EntryItem key={pathOf(basename, entry)} entry={entry} />
          ),
        )}
      </Menu>
    );
  };
}
