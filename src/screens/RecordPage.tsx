/**
 * The record of an update or view page (?id=), fetched before the page is drawn: without an
 * id, with one that does not exist, or with one the caller may not see, the page says so and
 * offers the way back to the list (never react-admin's crash page, never a create form).
 */
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Title, useGetOne, useTranslate, type HttpError } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Screen } from './screen';
import { useScreenPaths } from './paths';

/**
 * The meta a record page's queries carry: its failure is shown by the page, not the WARNING alert.
 * Updates made on the page carry it too, so that react-admin updates the page's cached record.
 */
export const pageQueryMeta = { silent: true } as const;

export function RecordNotFound({ screen, message }: { screen: Screen; message?: string }) {
  const translate = useTranslate();
  const paths = useScreenPaths(screen.name);
  return (
    <Card sx={{ mt: 2, maxWidth: 640 }} className="record-not-found">
      <Title title="app.record.not_found_title" />
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('app.record.not_found_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {message ?? translate('app.record.not_found_text')}
        </Typography>
        {Boolean(screen.config.list) && (
          <Button component={Link} to={paths.list} variant="contained" className="back-to-list">
            {translate('app.record.back_to_list', { name: translate(`resources.${screen.name}.name`, { smart_count: 2 }) })}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}

const notFoundStatuses = new Set([400, 403, 404]);

export function RecordPage({ screen, id, children }: { screen: Screen; id: string | null; children: ReactNode }) {
  const { error, isPending } = useGetOne(screen.name, { id: id ?? '', meta: pageQueryMeta }, { enabled: Boolean(id), retry: false });
  if (!id) return <RecordNotFound screen={screen} />;
  if (error) {
    const status = (error as HttpError).status;
    return <RecordNotFound screen={screen} message={notFoundStatuses.has(status) ? undefined : (error as Error).message} />;
  }
  if (isPending) return null;
  return <>{children}</>;
}
