/**
 * Marks a template as CSS, as Lit's css tag does for the elements: the text as written (no
 * escapes are read), which the build strips of comments and indentation
 * (scripts/minify-css-templates.js).
 */
export const css = String.raw;
