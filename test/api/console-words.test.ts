// Every console language file against English's words: the same ids, no more, the same
// placeholders in each, and no word left blank or left in English by a placeholder file.
import { expect } from '@open-wc/testing';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { english, type Words } from '../../src/console/words.js';

const placeholders = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

for (const language of LANGUAGES.filter((each) => each !== 'en')) {
  describe(`the console's ${language} words`, () => {
    let words: Words;
    before(async () => {
      ({ words } = (await import(`../../src/console/languages/${language}.ts`)) as { words: Words });
    });

    it("has exactly English's ids", () => {
      expect(Object.keys(words).sort()).to.deep.equal(Object.keys(english).sort());
    });

    it('keeps the placeholders of each English word', () => {
      const differing = Object.entries(english).filter(
        ([id, text]) => placeholders(words[id as keyof Words] ?? '').join() !== placeholders(text).join(),
      );
      expect(differing.map(([id]) => id)).to.deep.equal([]);
    });

    it('words each id in its own language', () => {
      expect(words, 'a placeholder file still standing in for a translation').to.not.equal(english);
      const blank = Object.entries(words).filter(([, text]) => !text.trim());
      expect(blank.map(([id]) => id)).to.deep.equal([]);
      expect(words['console.title']).to.not.equal(english['console.title']);
    });
  });
}
