/**
 * Every text the app shows exists in both languages: react-admin's keys, the server's message
 * keys, every key our code uses, the names and field labels of every resource an area shows,
 * and the label of every choice of every enum field of the areas' declarations.
 */
import fs from 'node:fs';
import path from 'node:path';
import englishMessages from 'ra-language-english';
import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../resources/messages';
import type { Locale } from '../../src/i18n';
import { messagesOf } from '../../src/i18n/areaTexts';
import { textsEn } from '../../src/i18n/texts-en';
import { textsZh } from '../../src/i18n/texts-zh';
import { declarationsOf, screensOf } from './areas';

type Tree = { [key: string]: Tree | string };
const areas = ['admin', 'manage'] as const;
const catalogOf = (locale: Locale, area: (typeof areas)[number]) => messagesOf(locale, screensOf(area)) as Tree;
const catalogs: Record<Locale, Tree> = { zh: catalogOf('zh', 'manage'), en: catalogOf('en', 'manage') };
const ownChinese = { ...messagesOf('zh') } as Tree;

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)));
}
function textOf(tree: Tree, key: string): string | undefined {
  const value = key.split('.').reduce<Tree | string | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), tree);
  return typeof value === 'string' ? value : undefined;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Complete keys written in our source, e.g. 'app.login.title' or "ra.action.save". */
function keysUsedInSource(files = sourceFiles(path.resolve('src'))): string[] {
  const keys = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/['"`]((?:app|ra|error|validation)\.[a-z_]+(?:\.[A-Za-z_]+)+)['"`]/g)) keys.add(match[1]);
  }
  return [...keys];
}

/** Keys built at run time from data: enum labels, index features, dialog titles. */
function dynamicKeys(): string[] {
  const keys = ['app.dialog.title.warning', 'app.dialog.title.delete'];
  for (const feature of ['domains', 'mailboxes', 'aliases', 'storage']) keys.push(`app.index.features.${feature}.title`, `app.index.features.${feature}.text`);
  // Mailbox rules: what the out-of-office reply does now, and who changed the rules.
  for (const state of ['off', 'on', 'scheduled', 'ended']) keys.push(`app.rules.ooo.short.${state}`);
  for (const state of ['off', 'on']) keys.push(`app.rules.ooo.state.${state}`);
  for (const actor of ['mailbox', 'customer', 'team_member', 'operator']) keys.push(`app.rules.actor.${actor}`);
  for (const declaration of new Set(areas.flatMap(declarationsOf))) {
    for (const [name, field] of Object.entries(declaration.fields)) {
      if (field.kind === 'enum') for (const choice of field.choices ?? []) keys.push(`app.enum.${name}.${choice}`);
    }
  }
  return keys;
}

/** resources.<screen>.* of an area's screens. */
function screenKeys(area: (typeof areas)[number]): string[] {
  return screensOf(area).flatMap((screen) => [
    `resources.${screen.name}.name`,
    `resources.${screen.name}.fields.id`,
    ...Object.keys(screen.declaration.fields).map((name) => `resources.${screen.name}.fields.${name}`),
  ]);
}

describe('translations', () => {
  it('the source uses keys, and every one of them exists in Chinese and English', () => {
    const used = keysUsedInSource();
    expect(used.length).toBeGreaterThan(80);
    for (const locale of ['zh', 'en'] as const) {
      expect(used.filter((key) => !textOf(catalogs[locale], key)), locale).toEqual([]);
    }
  });

  it('the public pages and the dialogs use only the texts every page downloads (not those that come with the areas)', () => {
    const outsideAreas = ['src/public', 'src/dialogs', 'src/api', 'src/App.tsx'].flatMap((p) => (p.endsWith('.tsx') ? [path.resolve(p)] : sourceFiles(path.resolve(p))));
    const used = keysUsedInSource(outsideAreas).concat(dynamicKeys().filter((key) => /^app\.(index|dialog)\./.test(key)));
    expect(used.length).toBeGreaterThan(40);
    for (const [locale, texts] of [['zh', textsZh], ['en', textsEn]] as const) {
      expect(used.filter((key) => !textOf(texts as unknown as Tree, key)), locale).toEqual([]);
    }
  });

  it('keys built from data (enum choices, resource names and field labels) exist in both languages', () => {
    for (const locale of ['zh', 'en'] as const) {
      expect(dynamicKeys().filter((key) => !textOf(catalogs[locale], key)), locale).toEqual([]);
      for (const area of areas) {
        const catalog = catalogOf(locale, area);
        expect(screenKeys(area).filter((key) => !textOf(catalog, key)), `${locale} ${area}`).toEqual([]);
      }
    }
  });

  it('every server message key (resources/messages.ts) exists in both languages', () => {
    const serverKeys = keysOf(serverMessages.en as unknown as Tree);
    expect(serverKeys).toContain('error.bad_code');
    for (const locale of ['zh', 'en'] as const) {
      expect(serverKeys.filter((key) => !textOf(catalogs[locale], key)), locale).toEqual([]);
    }
    expect(textOf(catalogs.zh, 'error.bad_code')).toBe(serverMessages.zh.error.bad_code);
  });

  it('Chinese has its own text for every react-admin key and every one of ours (not the English fallback)', () => {
    const words = (text: string) => /[a-z]{3}/i.test(text.replace(/%\{\w+\}/g, ''));
    const english = keysOf(englishMessages as unknown as Tree);
    expect(english.filter((key) => !textOf(ownChinese, key) || (textOf(ownChinese, key) === textOf(englishMessages as unknown as Tree, key) && words(textOf(ownChinese, key)!)))).toEqual([]);
    const ours = keysOf(catalogs.en).filter((key) => key.startsWith('app.') && /[a-z]{4}/i.test(textOf(catalogs.en, key)!));
    const untranslated = ours.filter((key) => textOf(catalogs.zh, key) === textOf(catalogs.en, key) && !/^(SMTP|OK|STARTTLS)$/.test(textOf(catalogs.en, key)!));
    expect(untranslated).toEqual([]);
  });

  it('resource names and labels of the declarations are Chinese in Chinese', () => {
    for (const area of areas) {
      const [zh, en] = [catalogOf('zh', area), catalogOf('en', area)];
      for (const key of screenKeys(area).filter((k) => !k.endsWith('.id'))) expect(textOf(zh, key), key).not.toBe(textOf(en, key));
    }
  });
});
