// A site's own service worker, which Questboard must never replace.
self.addEventListener('fetch', () => {});
