/** The paths of a screen: ids travel as ?id= (create and update share one form page). */
import { useBasename } from 'react-admin';
import type { Identifier } from 'react-admin';

export function screenPaths(basename: string, name: string) {
  const list = `${basename}/${name}`;
  return {
    list,
    create: `${list}/create`,
    update: (id: Identifier) => `${list}/update?id=${encodeURIComponent(String(id))}`,
    view: (id: Identifier) => `${list}/view?id=${encodeURIComponent(String(id))}`,
  };
}

export function useScreenPaths(name: string) {
  return screenPaths(useBasename(), name);
}
