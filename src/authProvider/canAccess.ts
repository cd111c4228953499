/**
 * Who may do what on the screens, read from the declarations (the server enforces the same
 * rules on every call; this only hides what would be refused).
 */
import type { CustomerAccess, Operation, OperatorRole } from '../../resources/define';
import type { Screen } from '../screens/screen';

export type Caller = { area: 'manage'; role: OperatorRole } | { area: 'admin'; isOwner: boolean };

const operationOf: Record<string, Operation | undefined> = {
  list: 'list',
  show: 'get',
  create: 'create',
  edit: 'update',
  delete: 'delete',
};

export function canAccess(screens: Screen[], caller: Caller, resource: string, action: string): boolean {
  const screen = screens.find((s) => s.name === resource);
  // Pages that are not declared resources (dashboard, profile) are open to every signed-in caller.
  if (!screen) return true;
  const op = operationOf[action];
  if (!op) return false;
  const access = screen.config[op];
  if (!access) return false;
  if (caller.area === 'manage') return caller.role === 'superadmin' || (access as readonly OperatorRole[]).includes(caller.role);
  return (access as CustomerAccess) === 'team' || caller.isOwner;
}
