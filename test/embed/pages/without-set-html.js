// Test pages only: a browser without Element.setHTML, so the embed's own sanitizer runs.
delete Element.prototype.setHTML;
