import { expect } from '@open-wc/testing';
import { VERSION } from '../../src/api/version.js';

describe('version', () => {
  it('is the version of package.json', async () => {
    const pkg = await (await fetch('/package.json')).json();
    expect(VERSION).to.equal(pkg.version);
  });
});
