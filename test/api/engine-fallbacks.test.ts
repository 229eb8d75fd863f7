// The fallbacks Questboard takes where an engine lacks a feature (docs/embedding.md: Engines), run in
// every engine by calling the fallback itself.
import { expect } from '@open-wc/testing';
import { guidFromRandomBytes, isGuid } from '../../src/api/formats.js';
import { addLeaderboardStyles } from '../../src/embed/document-styles.js';
import { leaderboardCss } from '../../src/ui/leaderboard-styles.js';

describe('engine fallbacks', () => {
  it('GUIDs without crypto.randomUUID (plain-http pages) are lowercase v4 and differ', () => {
    const guids = Array.from({ length: 200 }, guidFromRandomBytes);
    for (const guid of guids) {
      expect(isGuid(guid), guid).to.equal(true);
      expect(guid[14], guid).to.equal('4');
      expect('89ab', guid).to.include(guid[19]!);
    }
    expect(new Set(guids).size).to.equal(guids.length);
  });

  it('the fragment styles reach a page without constructed stylesheets as one <style> element', () => {
    const page = document.implementation.createHTMLDocument('old engine');
    addLeaderboardStyles(page, false);
    const styles = page.head.querySelectorAll('style');
    expect(styles).to.have.length(1);
    expect(styles[0]!.textContent).to.equal(leaderboardCss);
    expect(page.adoptedStyleSheets).to.have.length(0);
  });

  it('and as an adopted sheet where the engine has them', () => {
    // A constructed sheet may only be adopted by the document it was made in: this page's.
    const before = [...document.adoptedStyleSheets]; // a copy: Firefox hands out the live array
    addLeaderboardStyles(document, true);
    try {
      const added = document.adoptedStyleSheets.filter((sheet) => !before.includes(sheet));
      expect(added).to.have.length(1);
      expect(added[0]!.cssRules.length).to.be.greaterThan(5);
      expect(document.head.querySelector('style[data-questboard]')).to.equal(null);
    } finally {
      document.adoptedStyleSheets = before;
    }
  });
});
