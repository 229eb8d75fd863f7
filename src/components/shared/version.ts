/** Compared when another copy of Questboard already defined the elements on this page. */
export const QUESTBOARD_VERSION = '0.1.0';
