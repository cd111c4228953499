/**
 * What a screen is: a resource's pages in one area (list, form, view), derived from its
 * declaration, and what is special about them beside it (its extension). A feature folder
 * gives each of its resources as a ScreenFeature; an area makes its screens from those.
 */
import type { ComponentType, ReactElement } from 'react';
import type { Area, AreaConfig, Field, ResourceDeclaration } from '../../resources/define';

/** One resource as a feature folder gives it: its declaration, what is special about its screens, its menu icon. */
export interface ScreenFeature {
  declaration: ResourceDeclaration;
  extension?: ScreenExtension;
  icon?: ComponentType;
}

export interface Screen {
  area: Area;
  /** react-admin resource name = path segment of the screens, e.g. "admin" in /manage/admin. */
  name: string;
  declaration: ResourceDeclaration;
  config: AreaConfig<unknown>;
  /** e.g. "/api/manage/admin" */
  apiBase: string;
  listVia: 'query' | 'body';
  extension: ScreenExtension;
  icon?: ComponentType;
}

export type FormMode = 'create' | 'update';

export interface FieldViewProps {
  name: string;
  field: Field;
  /** Detail pages show long texts in full. */
  full?: boolean;
  /** The area the page belongs to (who "you" are). */
  area?: Area;
}

export interface FieldInputProps {
  name: string;
  field: Field;
  mode: FormMode;
  area: Area;
}

/**
 * What is special about a resource's screens, beside what its declaration gives: the list's
 * columns, a field's own view or input, and panels or buttons of its pages. Screens without
 * one are derived from the declaration alone.
 */
export interface ScreenExtension {
  /** The list's columns in this order (instead of every declared list field): wide lists stay readable. */
  columns?: (area: Area) => string[];
  /** The fields of the view page in this order (instead of every visible field). */
  viewFields?: (area: Area) => string[];
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
  /** With no records at all, still the (empty) list and its top instead of the "nothing yet" page. */
  keepEmptyList?: (area: Area) => boolean;
  /** Below the form on the update page (the record's context is available). */
  updatePanel?: ComponentType<{ screen: Screen }>;
  /**
   * For a create call that answers no record of the resource (a team member is invited: the
   * answer is the invitation): the form posts it as a call, then says this instead of "created"
   * ("Invitation sent to …") and goes where afterCreate says.
   */
  created?: (answer: Record<string, unknown>) => { message: string; args?: Record<string, unknown> };
  /** Where a new record's page goes after saving (e.g. a domain to its DNS instructions); the list by default. */
  afterCreate?: (resource?: string, id?: unknown, data?: Record<string, unknown>) => string;
  /** Buttons in the view page's top bar (the record's context is available). */
  viewActions?: ComponentType<{ screen: Screen }>;
  /** Below the fields on the view page. */
  viewPanel?: ComponentType<{ screen: Screen }>;
  /** Buttons in the update page's top bar. */
  updateActions?: ComponentType<{ screen: Screen }>;
  /** Which pages the screen has in an area, instead of those its access implies (the specification's paths). */
  pages?: (area: Area) => { form: boolean; update: boolean; view: boolean };
  /** The view page (?id=), instead of the derived one; rows of the list open it. */
  viewPage?: ComponentType<{ screen: Screen }>;
  /** Lists and view pages show the database id unless people have something else to go by (a ticket's or order's number). */
  hideId?: boolean;
  /** The list's filters, given those derived from the declaration. */
  filters?: (area: Area, derived: ReactElement[]) => ReactElement[];
  /** The delete dialog's question (a translation key), when deleting is not simply permanent (mailboxes). */
  deleteConfirm?: string;
  /** The delete button of lists, forms and view pages, when deleting asks something else first (a product orders refer to). */
  deleteButton?: ComponentType<{ redirectTo?: string; question?: string }>;
  /** Buttons of each list row beside view, edit and delete, for those who may update (the row's record context is available). */
  rowActions?: ComponentType<{ screen: Screen }>;
}
