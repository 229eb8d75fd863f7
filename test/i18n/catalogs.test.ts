// Every catalog against English's: the same message ids in the same part, the same
// placeholders, and exactly the plural forms its language has; and words for every code the
// API refuses with (English pages show the API's own English message).
import { expect } from '@open-wc/testing';
import * as errorCodes from '../../src/api/error-codes.js';
import * as english from '../../src/i18n/catalogs/en.js';
import { LANGUAGES } from '../../src/i18n/languages.js';
import type { Message } from '../../src/i18n/messages.js';

type Part = Readonly<Record<string, Message>>;
interface CatalogFile {
  table: Part;
  elements: Part;
  onDemand: Part;
  refusals?: Readonly<Record<string, string>>;
}

const CODES = Object.values(errorCodes).flatMap((entry) => (typeof entry === 'object' ? [entry.code] : []));

const ENGLISH: CatalogFile = { table: english.table, elements: english.elements, onDemand: english.onDemand };

const forms = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));
const placeholders = (message: Message) =>
  [...new Set(forms(message).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

for (const language of LANGUAGES.filter((each) => each !== 'en')) {
  describe(`the ${language} catalog`, () => {
    let catalog: CatalogFile;
    before(async () => {
      catalog = (await import(`../../src/i18n/catalogs/${language}.ts`)) as CatalogFile;
    });

    it("words every code of the API's refusals, and no other", () => {
      expect(Object.keys(catalog.refusals ?? {}).sort()).to.deep.equal(CODES.slice().sort());
      const untranslated = CODES.filter((code) => !catalog.refusals![code]?.trim());
      expect(untranslated, 'codes without words').to.deep.equal([]);
    });

    for (const part of ['table', 'elements', 'onDemand'] as const) {
      it(`has exactly English's ${part} messages, with the same placeholders`, () => {
        const source = ENGLISH[part];
        expect(Object.keys(catalog[part]).sort()).to.deep.equal(Object.keys(source).sort());
        const wrong = Object.keys(source).filter(
          (id) => JSON.stringify(placeholders(catalog[part][id]!)) !== JSON.stringify(placeholders(source[id]!)),
        );
        expect(wrong, 'messages whose placeholders differ from English').to.deep.equal([]);
      });

      it(`words what follows a number in every plural form of its language (${part})`, () => {
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
        for (const [id, message] of Object.entries(ENGLISH[part])) {
          const translated = catalog[part][id]!;
          if (typeof message === 'string') {
            expect(typeof translated, `${id} is plain text in English`).to.equal('string');
          } else if (typeof translated === 'string') {
            expect(categories, `${id} is plain text, though ${language} has plural forms`).to.deep.equal(['other']);
          } else {
            expect(Object.keys(translated).sort(), id).to.deep.equal(categories);
          }
        }
      });
    }
  });
}

describe('the English catalog', () => {
  it('words what follows a number in both English forms, chosen by {count}', () => {
    for (const part of [ENGLISH.table, ENGLISH.elements]) {
      for (const [id, message] of Object.entries(part)) {
        if (typeof message !== 'string') {
          expect(Object.keys(message).sort(), id).to.deep.equal(['one', 'other']);
          expect(placeholders(message), `${id} is chosen by {count}`).to.include('count');
        }
      }
    }
  });
});
