import { css } from 'lit';

/**
 * The console's look, shared by its shell and sections: the system's own colours (so light and
 * dark follow the OS, or the page's color-scheme), one accent, and a layout that reflows to one
 * column at a phone's width with nothing wider than the screen.
 */
export const consoleStyles = css`
  :host {
    color-scheme: light dark;
    --accent: light-dark(#3b4fd8, #9aa8ff);
    --danger: light-dark(#b3261e, #ffb4ab);
    --success: light-dark(#146c2e, #7bd88f);
    --muted: light-dark(#5c5f66, #b0b3ba);
    --line: light-dark(#d5d7dc, #44474e);
    --surface: light-dark(#f5f6f8, #1e2024);
    display: block;
    font: 15px/1.45 system-ui, sans-serif;
    color: CanvasText;
    background: Canvas;
  }
  *, *::before, *::after { box-sizing: border-box; }
  h1, h2, h3 { line-height: 1.2; margin: 0 0 0.6em; }
  h2 { font-size: 1.3em; }
  h3 { font-size: 1.1em; margin-top: 1.2em; }
  a { color: var(--accent); }
  button, input, select, textarea { font: inherit; color: inherit; }
  button {
    border: 1px solid var(--accent);
    background: var(--accent);
    color: Canvas;
    border-radius: 6px;
    padding: 0.35em 0.9em;
    cursor: pointer;
  }
  button.secondary { background: transparent; color: var(--accent); }
  button.danger { border-color: var(--danger); background: transparent; color: var(--danger); }
  button:disabled { opacity: 0.55; cursor: default; }
  input, select, textarea {
    border: 1px solid var(--line);
    border-radius: 6px;
    padding: 0.35em 0.5em;
    background: Canvas;
    max-width: 100%;
  }
  :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
  label { display: block; font-weight: 600; margin-block: 0.6em 0.2em; }
  /* A space after each, so that a row of checkboxes reads as pairs, each box beside its own word. */
  label.inline { display: inline-flex; gap: 0.4em; align-items: center; margin: 0; margin-inline-end: 1em; font-weight: 400; }
  form { display: grid; gap: 0.3em; justify-items: start; }
  fieldset { border: 1px solid var(--line); border-radius: 8px; }
  table { border-collapse: collapse; width: 100%; }
  /* Words stay whole (a narrow table scrolls in its .table-scroll); only .long text breaks anywhere. */
  th, td { text-align: start; padding: 0.4em 0.5em; border-bottom: 1px solid var(--line); overflow-wrap: break-word; }
  th { font-weight: 600; }
  .table-scroll { overflow-x: auto; max-width: 100%; }
  .muted { color: var(--muted); }
  .notice { padding: 0.6em 0.8em; border-radius: 6px; background: var(--surface); }
  .error { color: var(--danger); }
  .success { color: var(--success); }
  .row { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: end; }
  /* Apart from the list it turns, its page number level with its buttons. */
  .pager { margin-top: 0.8em; align-items: center; }
  .card { background: var(--surface); border-radius: 8px; padding: 0.8em 1em; }
  .card > :first-child { margin-top: 0; }
  ul.cards { list-style: none; padding: 0; display: grid; gap: 0.6em; }
  .secret { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
  /* Machine text with no spaces to break at (addresses, JSON): wrapped anywhere rather than widening its column. */
  .long { overflow-wrap: anywhere; }
`;
