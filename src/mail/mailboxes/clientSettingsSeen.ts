/** Whether the customer has opened a mailbox's mail-program settings (the last of the dashboard's first steps). */
const CLIENT_SETTINGS_SEEN = 'maildesk.client_settings_seen';
export const clientSettingsSeen = () => {
  try {
    return window.localStorage.getItem(CLIENT_SETTINGS_SEEN) === '1';
  } catch {
    return false;
  }
};
export const markClientSettingsSeen = () => {
  try {
    window.localStorage.setItem(CLIENT_SETTINGS_SEEN, '1');
  } catch {
    /* private mode: the step stays open */
  }
};
