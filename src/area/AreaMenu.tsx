/** The side menu of an area: its dashboard, its profile page, then the screens the caller may open. */
import PersonIcon from '@mui/icons-material/Person';
import type { SvgIconComponent } from '@mui/icons-material';
import type { ReactElement } from 'react';
import { Menu, useBasename } from 'react-admin';
import type { Screen } from '../screens/registry';

/** A page of an area that is not a declared resource (e.g. the operators' jobs page). */
export interface AreaPage {
  path: string;
  label: string;
  icon: SvgIconComponent;
  element: ReactElement;
}

export function areaMenu(screens: Screen[], pages: AreaPage[] = []) {
  return function AreaMenu() {
    const basename = useBasename();
    return (
      <Menu>
        <Menu.DashboardItem />
        <Menu.Item to={`${basename}/profile`} primaryText="app.nav.profile" leftIcon={<PersonIcon />} />
        {screens.filter((s) => s.config.list).map((s) => (
          <Menu.ResourceItem key={s.name} name={s.name} />
        ))}
        {pages.map(({ path, label, icon: Icon }) => (
          <Menu.Item key={path} to={`${basename}/${path}`} primaryText={label} leftIcon={<Icon />} />
        ))}
      </Menu>
    );
  };
}
