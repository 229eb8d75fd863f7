// The framework page: Questboard's custom elements inside a Vue 3 app. Vue
// renders them like any element (attributes from reactive state) and listens
// to their typed `qb-endorse` events with an ordinary `onQbEndorse` handler.
// Choosing the member signs the page in as them: the endorse buttons name no
// `from`, the API takes the endorser from the page's member token.
import { computed, createApp, defineComponent, h, ref, watch } from 'vue';
import type { QbEndorseEvent } from '../src/components/index.js';
import './components.js';
import { connect } from './connection.js';
import { CHALLENGE_IDS, DEMO_APP_ID, FEATURED_MEMBERS, HOSTILE_NAME } from './dataset.js';
import { signInAs } from './member-tokens.js';
import { ensureSeeded } from './seed.js';

const TEAM = FEATURED_MEMBERS.filter((name) => name !== HOSTILE_NAME);
const BOARD_TYPES = [
  { value: 'score', label: 'Score' },
  { value: 'weekly', label: 'This week' },
] as const;

const GuildApp = defineComponent({
  setup() {
    const member = ref<string>(TEAM[0]);
    const boardType = ref<string>('score');
    const endorsements = ref<string[]>([]);
    const teammates = computed(() => TEAM.filter((name) => name !== member.value));
    watch(member, signInAs);

    const onEndorse = (event: QbEndorseEvent) => {
      const { from, to, endorsementId } = event.detail;
      endorsements.value = [`${from} endorsed ${to} (${endorsementId})`, ...endorsements.value].slice(0, 5);
    };

    return () =>
      h('div', { class: 'vue-grid' }, [
        h('section', { class: 'panel vue-controls', 'aria-labelledby': 'vue-controls-title' }, [
          h('h2', { id: 'vue-controls-title' }, 'Vue state'),
          h('label', { class: 'field' }, [
            h('span', 'Member'),
            h(
              'select',
              {
                value: member.value,
                onChange: (event: Event) => (member.value = (event.target as HTMLSelectElement).value),
              },
              TEAM.map((name) => h('option', { value: name }, name)),
            ),
          ]),
          h(
            'div',
            { class: 'segmented', role: 'radiogroup', 'aria-label': 'Leaderboard' },
            BOARD_TYPES.map(({ value, label }) =>
              h('label', [
                h('input', {
                  type: 'radio',
                  name: 'vue-board-type',
                  value,
                  checked: boardType.value === value,
                  onChange: () => (boardType.value = value),
                }),
                h('span', label),
              ]),
            ),
          ),
          h('h3', 'Endorse a teammate'),
          h(
            'ul',
            { class: 'teammates' },
            teammates.value.map((name) =>
              h('li', { key: name }, [
                h('bdi', { class: 'neighbour-name' }, name),
                h(
                  'qb-endorse-button',
                  {
                    'app-id': DEMO_APP_ID,
                    to: name,
                    'endorsement-id': 'kind',
                    onQbEndorse: onEndorse,
                  },
                  ['Endorse', h('span', { class: 'visually-hidden' }, ` ${name}`)],
                ),
              ]),
            ),
          ),
          h('h3', 'Heard by Vue'),
          h(
            'ol',
            { class: 'vue-events', 'aria-live': 'polite' },
            endorsements.value.length
              ? endorsements.value.map((line) => h('li', line))
              : [h('li', { class: 'hint' }, 'No qb-endorse event yet.')],
          ),
        ]),
        h('section', { class: 'panel vue-board', 'aria-label': 'Leaderboard' }, [
          h('qb-leaderboard', { 'app-id': DEMO_APP_ID, type: boardType.value, limit: 5, highlight: member.value }),
        ]),
        h('section', { class: 'panel', 'aria-label': 'Member card' }, [
          h('qb-user-card', { 'app-id': DEMO_APP_ID, 'account-name': member.value }),
        ]),
        h('section', { class: 'panel', 'aria-label': 'Challenge' }, [
          h('qb-challenge', { 'challenge-id': CHALLENGE_IDS.mentorCircle, 'account-name': member.value }),
        ]),
      ]);
  },
});

const root = document.querySelector<HTMLElement>('#app')!;
try {
  const { transport } = await connect(TEAM[0]);
  await ensureSeeded(transport);
  createApp(GuildApp).mount(root);
  root.setAttribute('aria-busy', 'false');
} catch (error) {
  root.textContent = `The Vue demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
}
