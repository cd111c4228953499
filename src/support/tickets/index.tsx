/** Support tickets: the queue and the customer's list, the create form with files and a record link, and the conversation page. */
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import { FunctionField, SelectInput, TextField } from 'react-admin';
import { ticket } from '../../../resources/ticket';
import type { FieldViewProps, ScreenExtension, ScreenFeature } from '../../screens/screen';
import { LinkInput, LinkTypeInput, MessageInput } from './TicketInputs';
import { TicketView } from './TicketView';

/** The assignee by name (from the queue's rows), or nothing. */
function AssigneeView({ name }: FieldViewProps) {
  return <FunctionField source={name} render={(record) => (record.assignee_name as string) ?? ''} />;
}

/** Subjects read on one or two lines, not a word per line. */
function SubjectView({ name }: FieldViewProps) {
  return <TextField source={name} sx={{ display: 'block', minWidth: 220, maxWidth: 420 }} />;
}

const ticketScreens: ScreenExtension = {
  representation: 'subject',
  columns: (area) =>
    area === 'manage'
      ? ['number', 'subject', 'owner_id', 'category', 'priority', 'status', 'assignee_id', 'last_activity_at', 'waiting_since']
      : ['number', 'subject', 'category', 'priority', 'status', 'last_reply_by', 'last_activity_at'],
  // The specification's pages: customers have view, create and update; operators the queue and view.
  pages: (area) => (area === 'admin' ? { form: true, update: true, view: true } : { form: false, update: false, view: true }),
  viewPage: TicketView,
  hideId: true,
  // A new ticket is open; customers close from the conversation page (and reopen by writing).
  hiddenInputs: (area, mode) => (mode === 'create' || area === 'admin' ? ['status'] : []),
  inputs: { message: MessageInput, link_type: LinkTypeInput, link_id: LinkInput },
  views: { assignee_id: AssigneeView, subject: SubjectView },
  filters: (area, derived) =>
    area === 'manage'
      ? [
          ...derived.filter((f) => f.key !== 'assignee_id'),
          <SelectInput
            key="assignee_id"
            source="assignee_id"
            label="app.ticket.assign"
            alwaysOn
            choices={[
              { id: 'mine', name: 'app.ticket.mine' },
              { id: 'none', name: 'app.ticket.unassigned' },
            ]}
          />,
        ]
      : derived,
};

export const tickets: ScreenFeature = { declaration: ticket, extension: ticketScreens, icon: SupportAgentIcon };
