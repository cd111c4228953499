/** Byte sizes as people read them: one formatter for the screens and the server's messages. */
export { formatBytes } from '../../resources/bytes';

export const MiB = 1024 ** 2;
export const GiB = 1024 ** 3;
