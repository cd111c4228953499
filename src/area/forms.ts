/**
 * One way of reporting a form's errors: beside the fields, translated, by our own validators.
 * Every form of the areas spreads these props: no browser bubbles (noValidate; the browser's
 * texts are English whatever the page's language). The "form is not valid" snackbar is
 * dropped for every form by the area layout (AreaLayout.tsx).
 */
export const inlineErrorsOnly = { noValidate: true } as const;

/** Whether a refusal carries errors of named fields (a form shows them; no alert is needed). */
export const hasFieldErrors = (errors: Record<string, unknown> | undefined) => Object.keys(errors ?? {}).some((key) => key !== '_');
