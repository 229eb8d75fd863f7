// The embed's page tests open each page of test/embed/pages/ in an iframe of this document.

/** The frames a test file has opened, in order: the file removes them when it is done with them. */
export const openFrames: HTMLIFrameElement[] = [];

/**
 * Opens test/embed/pages/<name>.html (built by test/embed/pages.js), with `fragment` after a #
 * if given, in an 800×600 frame; resolves once it has loaded.
 */
export async function openFrame(name: string, fragment?: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.title = name;
  frame.style.inlineSize = '800px';
  frame.style.blockSize = '600px';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = `/test/embed/pages/${name}.html${fragment === undefined ? '' : `#${fragment}`}`;
  document.body.append(frame);
  openFrames.push(frame);
  await loaded;
  return frame;
}
