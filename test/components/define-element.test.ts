import { expect } from '@open-wc/testing';
import { defineElement } from '../../src/components/shared/define-element.js';

describe('defineElement', () => {
  const warnings: unknown[][] = [];
  const original = console.warn;
  beforeEach(() => {
    warnings.length = 0;
    console.warn = (...args: unknown[]) => void warnings.push(args);
  });
  afterEach(() => {
    console.warn = original;
  });

  it('defines a tag once and stays silent when the same copy asks again', () => {
    class First extends HTMLElement {}
    defineElement('qb-define-test-a', First);
    defineElement('qb-define-test-a', First);
    expect(customElements.get('qb-define-test-a')).to.equal(First);
    expect(warnings).to.deep.equal([]);
  });

  it('keeps the first definition and stays silent for another copy of the same version', () => {
    class First extends HTMLElement {}
    class SameVersionCopy extends HTMLElement {}
    defineElement('qb-define-test-b', First);
    expect(() => defineElement('qb-define-test-b', SameVersionCopy)).not.to.throw();
    expect(customElements.get('qb-define-test-b')).to.equal(First);
    expect(warnings).to.deep.equal([]);
  });

  it('warns about a definition from another version or script, without throwing', () => {
    class Foreign extends HTMLElement {}
    customElements.define('qb-define-test-c', Foreign);
    class Ours extends HTMLElement {}
    expect(() => defineElement('qb-define-test-c', Ours)).not.to.throw();
    expect(customElements.get('qb-define-test-c')).to.equal(Foreign);
    expect(warnings).to.have.length(1);
    expect(String(warnings[0]![0])).to.equal(
      '[questboard] <qb-define-test-c> is already defined by another script; version 0.1.0 keeps that definition.',
    );
  });
});
