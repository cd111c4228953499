/** The side menu of an area: its dashboard, its profile page, then the screens the caller may open. */
import PersonIcon from '@mui/icons-material/Person';
import { Menu, useBasename } from 'react-admin';
import type { Screen } from '../screens/registry';

export function areaMenu(screens: Screen[]) {
  return function AreaMenu() {
    const basename = useBasename();
    return (
      <Menu>
        <Menu.DashboardItem />
        <Menu.Item to={`${basename}/profile`} primaryText="app.nav.profile" leftIcon={<PersonIcon />} />
        {screens.filter((s) => s.config.list).map((s) => (
          <Menu.ResourceItem key={s.name} name={s.name} />
        ))}
      </Menu>
    );
  };
}
