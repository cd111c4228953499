/** The English texts any page may show: the server's messages and ours (loaded only when English is chosen). */
import type { TranslationMessages } from 'ra-core';
import { serverMessagesEn } from '../../resources/messages-en';
import { appEn } from './app-en';

export const textsEn = { ...serverMessagesEn, ...appEn } as unknown as TranslationMessages;
