/**
 * What is special about a resource's screens, beside what its declaration gives: the list's
 * columns, a field's own view or input, and panels or buttons of its pages. Each resource's
 * folder exports one of these; screens without one are derived from the declaration alone.
 */
import type { ComponentType } from 'react';
import type { Area, Field } from '../../resources/define';
import type { Screen } from './registry';

export type FormMode = 'create' | 'update';

export interface FieldViewProps {
  name: string;
  field: Field;
  full?: boolean;
}

export interface FieldInputProps {
  name: string;
  field: Field;
  mode: FormMode;
  area: Area;
}

export interface ScreenExtension {
  /** The list's columns in this order (instead of every declared list field): wide lists stay readable. */
  columns?: (area: Area) => string[];
  /** The field that names a record (titles, pickers), when not the first searchable one. */
  representation?: string;
  /** How a field reads in lists and views, instead of by its kind. */
  views?: Record<string, ComponentType<FieldViewProps>>;
  /** A field's form input, instead of by its kind. */
  inputs?: Record<string, ComponentType<FieldInputProps>>;
  /** Fields a form leaves out although the API accepts them (a page of their own does them). */
  hiddenInputs?: (area: Area, mode: FormMode) => string[];
  /** Below the list's filters, inside the list (its context is available). */
  listTop?: ComponentType<{ screen: Screen }>;
  /** Below the form on the update page (the record's context is available). */
  updatePanel?: ComponentType<{ screen: Screen }>;
  /** Buttons in the update page's top bar. */
  updateActions?: ComponentType<{ screen: Screen }>;
}
