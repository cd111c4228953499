/** Products: a storage product has a size (and maybe a period), a points product the points it grants; never both. */
import { fieldError } from '../core/errors.js';
import type { ResourceBehaviour } from '../core/resource-calls.js';

export const productBehaviour: ResourceBehaviour = {
  check(change) {
    const p = change.after!;
    if (p.kind === 'storage') {
      if (p.storage_size == null) throw fieldError('storage_size', 'validation.required');
      if (p.points_granted != null) throw fieldError('points_granted', 'shop.not_for_storage');
    } else {
      if (p.points_granted == null) throw fieldError('points_granted', 'validation.required');
      if (p.storage_size != null) throw fieldError('storage_size', 'shop.not_for_points');
      if (p.period_months != null) throw fieldError('period_months', 'shop.not_for_points');
    }
  },
};
