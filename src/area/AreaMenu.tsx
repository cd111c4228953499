/** The side menu of an area: its dashboard, its profile page, then its features in their order (the screens that have a list, and its pages). */
import PersonIcon from '@mui/icons-material/Person';
import { Menu, useBasename } from 'react-admin';
import type { Screen } from '../screens/screen';
import { isPage, type AreaPage } from './features';

export function areaMenu(entries: readonly (Screen | AreaPage)[]) {
  return function AreaMenu() {
    const basename = useBasename();
    return (
      <Menu>
        <Menu.DashboardItem />
        <Menu.Item to={`${basename}/profile`} primaryText="app.nav.profile" leftIcon={<PersonIcon />} />
        {entries.map((entry) => {
          if (!isPage(entry)) return entry.config.list ? <Menu.ResourceItem key={entry.name} name={entry.name} /> : null;
          const { path, label, icon: Icon } = entry;
          return <Menu.Item key={path} to={`${basename}/${path}`} primaryText={label} leftIcon={<Icon />} />;
        })}
      </Menu>
    );
  };
}
