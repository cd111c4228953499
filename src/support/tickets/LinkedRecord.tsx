/**
 * What a ticket is about, as people know it (a domain's or mailbox's name, an order's number),
 * linking to that record's page in the reader's area when they may open it.
 */
import LinkIcon from '@mui/icons-material/Link';
import Chip from '@mui/material/Chip';
import { useCanAccess, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Area } from '../../../resources/define';
import { enumLabelKey } from '../../screens/fields';
import { screenPaths } from '../../screens/paths';
import { screensOf } from '../../screens/registry';
import { pagesOf } from '../../screens/ScreenList';

/** The page of a linked record in an area: its view page, or its form where that is the record's page. */
function pathOf(area: Area, type: string, id: number) {
  const screen = screensOf(area).find((s) => s.declaration.name === type);
  if (!screen) return undefined;
  const pages = pagesOf(screen);
  const paths = screenPaths(`/${area}`, screen.name);
  if (pages.view) return { resource: screen.name, action: 'show', to: paths.view(id) };
  if (pages.update) return { resource: screen.name, action: 'edit', to: paths.update(id) };
  return undefined;
}

export function LinkedRecord({ area, type, id, name }: { area: Area; type: string; id: number | null; name: string | null }) {
  const translate = useTranslate();
  const page = id ? pathOf(area, type, id) : undefined;
  const { canAccess } = useCanAccess({ resource: page?.resource, action: page?.action ?? 'show', enabled: Boolean(page) });
  const label = `${translate(enumLabelKey('link_type', type))}: ${name ?? '—'}`;
  if (page && name && canAccess) {
    return <Chip size="small" variant="outlined" clickable component={Link} to={page.to} icon={<LinkIcon />} label={label} className={`ticket-link ticket-link-${type}`} />;
  }
  return <Chip size="small" variant="outlined" label={label} className={`ticket-link ticket-link-${type}`} />;
}
