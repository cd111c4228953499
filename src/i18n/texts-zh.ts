/** The Chinese texts any page may show: the server's messages and ours (loaded only when Chinese is chosen). */
import type { TranslationMessages } from 'ra-core';
import { serverMessagesZh } from '../../resources/messages-zh';
import { appZh } from './app-zh';

export const textsZh = { ...serverMessagesZh, ...appZh } as unknown as TranslationMessages;
