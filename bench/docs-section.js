// docs/performance.md holds one section per benchmark, each between marker
// comments; a benchmark rewrites its own section and leaves the rest alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const TITLE = '# Performance\n';

/** Replaces the section `name` of the file (appending it where there is none yet). */
export function writeSection(file, name, markdown) {
  const begin = `<!-- ${name}: begin (written by the benchmark; edits between these markers are lost) -->`;
  const end = `<!-- ${name}: end -->`;
  const section = `${begin}\n\n${markdown.trim()}\n\n${end}`;
  const text = existsSync(file) ? readFileSync(file, 'utf8') : TITLE;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  const updated =
    from !== -1 && to > from ? text.slice(0, from) + section + text.slice(to + end.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, updated);
}
