// Test pages only: Tailwind's default theme as a Tailwind build emits it, CSS variables on
// :root, read from the package's own theme.css (whose `@theme` block only Tailwind's compiler
// understands). The test waits for window.hostReady before it adds the embed.
window.hostReady = fetch('/node_modules/tailwindcss/theme.css')
  .then((response) => response.text())
  .then((source) => {
    const body = source.slice(source.indexOf('{') + 1, source.indexOf('@keyframes'));
    const style = document.createElement('style');
    style.id = 'tailwind-variables';
    style.textContent = `:root {${body}}`;
    document.head.prepend(style);
  });
