// The handler's own SHA-256 (src/api/key-hash.ts), in each engine: its constants are computed
// from Math.sqrt and Math.cbrt, so a wrong bit in any engine changes these digests.
import { expect } from '@open-wc/testing';
import { sha256Hex } from '../../src/api/key-hash.js';

describe('sha256Hex', () => {
  it('gives the digests of FIPS 180-2 and of text beyond ASCII', () => {
    expect(sha256Hex('')).to.equal('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // Two blocks: 56 bytes leave no room for the length in the first.
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).to.equal(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('é€😀')).to.equal('df9226927fd572c1ee66eec85de1bb139497614899f36e4e90474cb71f6ef9d0');
  });
});
