// The guild with a quest (docs/quests.md): a code task (the code is "riverside"), a review task
// and a callback task, for the tests of <qb-quest-task> in the page and in the embed.
import type { Dataset } from '../../src/api/schemas.js';
import { guildDataset } from './support.js';

export const QUEST_ID = '5e1f0a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
export const CODE_TASK = '6f2a1b3c-4d5e-4f6a-9b7c-8d9e0f1a2b3c';
export const REVIEW_TASK = '7a3b2c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';
export const CALLBACK_TASK = '8b4c3d5e-6f7a-4b8c-9d9e-0f1a2b3c4d5e';

export function questDataset(): Dataset {
  const dataset = guildDataset(['dora', 'erin', 'fay', 'gus']);
  dataset.apps![0]!.challenges!.push({
    challenge_id: QUEST_ID,
    name: 'Meetup quest',
    description: 'Things to do at the meetup.',
    start_date: '2026-01-01T00:00:00Z',
    tasks: [
      {
        task_id: CODE_TASK,
        name: 'Say the code',
        quantity: 1,
        operator: 0,
        points: 10,
        verification: { kind: 'code', answers: ['riverside'] },
      },
      { task_id: REVIEW_TASK, name: 'Show your build', quantity: 1, operator: 0, points: 20, verification: { kind: 'review' } },
      {
        task_id: CALLBACK_TASK,
        name: 'Star the repository',
        quantity: 1,
        operator: 0,
        verification: { kind: 'callback', url: 'https://site.example/check' },
      },
    ],
  });
  return dataset;
}
