/**
 * What a ticket is about, as people know it (a domain's or mailbox's name, an order's number),
 * linking to that record's page in the reader's area when they may open it.
 */
import LinkIcon from '@mui/icons-material/Link';
import Chip from '@mui/material/Chip';
import { useCanAccess, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useScreenNamed } from '../../screens/areaScreens';
import { enumLabelKey } from '../../screens/fields';
import { screenPaths } from '../../screens/paths';
import { pagesOf } from '../../screens/registry';
import type { Screen } from '../../screens/screen';

/** The page of a linked record in an area: its view page, or its form where that is the record's page. */
function pathOf(screen: Screen, id: number) {
  const pages = pagesOf(screen);
  const paths = screenPaths(`/${screen.area}`, screen.name);
  if (pages.view) return { resource: screen.name, action: 'show', to: paths.view(id) };
  if (pages.update) return { resource: screen.name, action: 'edit', to: paths.update(id) };
  return undefined;
}

export function LinkedRecord({ type, id, name }: { type: string; id: number | null; name: string | null }) {
  const translate = useTranslate();
  const screen = useScreenNamed(type);
  const page = screen && id ? pathOf(screen, id) : undefined;
  const { canAccess } = useCanAccess({ resource: page?.resource, action: page?.action ?? 'show', enabled: Boolean(page) });
  const label = `${translate(enumLabelKey('link_type', type))}: ${name ?? '—'}`;
  if (page && name && canAccess) {
    return <Chip size="small" variant="outlined" clickable component={Link} to={page.to} icon={<LinkIcon />} label={label} className={`ticket-link ticket-link-${type}`} />;
  }
  return <Chip size="small" variant="outlined" label={label} className={`ticket-link ticket-link-${type}`} />;
}
