import { english, type Words } from '../words.js';

export const words: Words = english; // TEMP
