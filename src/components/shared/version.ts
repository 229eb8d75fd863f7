// One version for the whole package: the API's health answer and the elements' guard share it.
export { VERSION as QUESTBOARD_VERSION } from '../../api/version.js';
