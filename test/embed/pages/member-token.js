// Test page only: the embed's script tag as a site's backend renders it for a signed-in member,
// whose token (here the address's fragment) it writes into data-member-token. No token, no attribute.
const embed = document.createElement('script');
embed.src = '/dist/questboard.js';
embed.dataset.apiKey = 'pk_member';
embed.dataset.serviceWorker = 'none';
const token = location.hash.slice(1);
if (token) embed.dataset.memberToken = token;
document.head.append(embed);
