/**
 * The screens' tests are a Chinese-speaking person's: jsdom's browser says en-US, and the app
 * follows the browser's language until the person chooses one (src/i18n). Imported before the
 * app's modules, which read it when they load; a test in English chooses English.
 */
Object.defineProperty(window.navigator, 'languages', { value: ['zh-CN', 'zh'], configurable: true });
Object.defineProperty(window.navigator, 'language', { value: 'zh-CN', configurable: true });
